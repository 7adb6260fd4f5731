import { loadConfigOrExit, onShutdown } from '@ct/service-kit';
import { buildGateway } from './app.ts';
import { GATEWAY_RULES, GatewayConfig } from './config.ts';

const config = loadConfigOrExit(GatewayConfig, process.env, GATEWAY_RULES);
const gateway = await buildGateway({ config });
await gateway.app.listen({ port: config.PORT, host: config.HOST });
onShutdown(() => gateway.close(), gateway.app.log, config.SHUTDOWN_DRAIN_MS + 5000);
