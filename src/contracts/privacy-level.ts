import { z } from 'zod';

// How sensitive a message is, lowest first (re-exported by reason-request.ts).

export const privacyLevels = ['public', 'internal', 'confidential', 'restricted'] as const;
export const messageLevelSchema = z.enum(privacyLevels);
export type PrivacyLevel = z.infer<typeof messageLevelSchema>;
