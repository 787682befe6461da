import { row } from './route';

export const healthRoutes = [
  row({ operationId: 'live', method: 'GET', path: '/live', permission: null, handler: 'functions/health/live.ts', area: 'health', schemas: {}, probe: true }),
  row({ operationId: 'ready', method: 'GET', path: '/ready', permission: null, handler: 'functions/health/ready.ts', area: 'health', schemas: {}, probe: true }),
  row({ operationId: 'health', method: 'GET', path: '/health', permission: null, handler: 'functions/health/health.ts', area: 'health', schemas: {}, probe: true }),
] as const;
