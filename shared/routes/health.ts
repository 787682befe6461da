import * as health from '../schemas/health';
import { row } from './route';

export const healthRoutes = [
  row({
    operationId: 'live',
    method: 'GET',
    path: '/live',
    permission: null,
    handler: 'functions/health/live.ts',
    area: 'health',
    schemas: { response: health.LiveAnswer },
    probe: true,
    summary: 'Liveness probe',
  }),
  row({
    operationId: 'ready',
    method: 'GET',
    path: '/ready',
    permission: null,
    handler: 'functions/health/ready.ts',
    area: 'health',
    schemas: { response: health.ReadyAnswer },
    probe: true,
    summary: 'Readiness probe (checks the database)',
  }),
  row({
    operationId: 'health',
    method: 'GET',
    path: '/health',
    permission: null,
    handler: 'functions/health/health.ts',
    area: 'health',
    schemas: { response: health.HealthAnswer },
    probe: true,
    summary: 'Health of the dependencies',
  }),
] as const;
