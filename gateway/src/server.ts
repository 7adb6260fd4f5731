import { loadConfigOrExit, onShutdown } from '@ct/service-kit';
import { buildGateway } from './app.ts';
import { GatewayConfig } from './config.ts';

const config = loadConfigOrExit(GatewayConfig);
const gateway = await buildGateway({ config });
await gateway.app.listen({ port: config.PORT, host: config.HOST });
onShutdown(() => gateway.close(), gateway.app.log, config.SHUTDOWN_DRAIN_MS + 5000);
