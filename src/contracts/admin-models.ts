import { z } from 'zod';
import { discoveryModelSchema } from './discovery';

// GET /v1/admin/models: every catalog model as the operator's console shows it, read fresh from shared
// health (no per-isolate cache): whether its provider is configured, where it runs and what it costs,
// its observed latency and error rate, and where its circuit stands.

/** closed: called as planned; open: skipped until `retryAt`; probing: a single request is let through. */
export const consoleCircuits = ['closed', 'open', 'probing'] as const;
export type ConsoleCircuit = (typeof consoleCircuits)[number];

export const modelStatusSchema = z.strictObject({
  provider: z.string(),
  kind: z.string(),
  model: z.string(),
  configured: z.boolean(),
  /** Why the provider cannot be used: its key or binding is missing, or it is a stand-in. */
  notConfiguredReason: z.string().optional(),
  simulated: z.boolean(),
  regions: discoveryModelSchema.shape.regions,
  priceUsdPerMTok: discoveryModelSchema.shape.priceUsdPerMTok,
  latency: discoveryModelSchema.shape.latency,
  health: z.strictObject({
    circuit: z.enum(consoleCircuits),
    /** Whose circuit it is: the model's own, or its whole provider's (a bad key, an exhausted quota). */
    circuitScope: z.enum(['model', 'provider']),
    /** When an open circuit lets its probe through (epoch ms); null when it is not open. */
    retryAt: z.number().int().nullable(),
    samples: z.number().int().min(0),
    errorRate: z.number().min(0).max(1),
    lastErrorKind: z.string().optional(),
  }),
});
export type ModelStatus = z.infer<typeof modelStatusSchema>;

export const modelStatusListSchema = z.strictObject({
  /** When shared health was read (epoch ms). */
  at: z.number().int(),
  models: z.array(modelStatusSchema),
});
export type ModelStatusList = z.infer<typeof modelStatusListSchema>;
