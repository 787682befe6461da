/** The health probes' answers (docs/api.md): their own body shapes, not the envelope. */
import { Type } from './typebox';
import { Nullable } from './common';

const timestamp = Type.String({ format: 'date-time' });
const uptime = Type.Integer({ minimum: 0, description: 'seconds the process has run' });
const status = (...values: string[]) => Type.Union(values.map((v) => Type.Literal(v)));

const DependencyCheck = Type.Object(
  {
    status: status('healthy', 'degraded', 'unhealthy'),
    responseTimeMs: Type.Number({ minimum: 0 }),
    error: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const LiveAnswer = Type.Object(
  { status: Type.Literal('alive'), timestamp, uptime },
  { additionalProperties: false },
);

export const ReadyAnswer = Type.Object(
  {
    status: status('healthy', 'degraded', 'unhealthy'),
    timestamp,
    uptime,
    dependencies: Type.Object(
      {
        database: DependencyCheck,
        startup: Type.Optional({
          ...DependencyCheck,
          description: 'Only while the process does not serve yet (the local stage seeding): unhealthy, naming why',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const CacheCheck = Type.Object(
  {
    status: Type.Literal('healthy'),
    responseTimeMs: Type.Number({ minimum: 0 }),
    error: Type.Null(),
    entries: Type.Integer({ minimum: 0 }),
    maxEntries: Type.Integer({ minimum: 0 }),
    refusedEntries: Type.Integer({ minimum: 0 }),
    ttlSeconds: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const HealthAnswer = Type.Object(
  {
    status: status('healthy', 'unhealthy'),
    data: Type.Object({ database: DependencyCheck, cache: CacheCheck }, { additionalProperties: false }),
    timestamp,
  },
  { additionalProperties: false },
);
