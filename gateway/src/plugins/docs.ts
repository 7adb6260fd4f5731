import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.ts';

/** OpenAPI for every route registered after it, browsable at /api/docs. */
export default fp<{ config: GatewayConfig }>(async (app, { config }) => {
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.PRODUCT_NAME} API`, version: '1.0.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'Firebase ID token' } },
      },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
