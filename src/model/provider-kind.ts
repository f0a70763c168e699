// The provider kinds Valve has adapters for: a catalog entry names one, the registry maps each to its adapter.

export const providerKinds = ['openai', 'anthropic', 'gemini', 'workers-ai', 'sim'] as const;
export type ProviderKind = (typeof providerKinds)[number];
