import { describe, expect, it } from 'vitest';
import type { CatalogModel } from '../../src/policy/catalog';
import { reasoningProblem, resolveReasoning } from '../../src/policy/resolve-reasoning';
import { simModel } from '../helpers/catalog-fixtures';

const reasons = { tools: true, json: 'native' as const, reasoning: true, base64Data: false };
const budgetModel = simModel('budget', {
  capabilities: reasons,
  reasoning: {
    control: 'budget',
    minBudgetTokens: 1024,
    canDisable: true,
    defaultOn: false,
    billedAsOutput: true,
  },
});
const gemini25 = simModel('flash', {
  capabilities: reasons,
  reasoning: {
    control: 'budget',
    minBudgetTokens: 0,
    maxBudgetTokens: 24_576,
    canDisable: true,
    defaultOn: true,
    billedAsOutput: true,
  },
});
const gemini3: CatalogModel = simModel('pro-3', {
  capabilities: reasons,
  reasoning: {
    control: 'level',
    levels: ['low', 'high'],
    canDisable: false,
    defaultOn: true,
    billedAsOutput: true,
  },
});

describe('resolveReasoning', () => {
  it('cuts a budget to max_tokens less a quarter for the answer', () => {
    expect(resolveReasoning(budgetModel, { effort: 'high' }, 40_000)).toMatchObject({
      setting: { budget_tokens: 24_576 },
    });
    expect(resolveReasoning(budgetModel, { effort: 'high' }, 2000)).toMatchObject({
      setting: { budget_tokens: 1500 },
    });
    expect(resolveReasoning(budgetModel, { budget_tokens: 5000 }, 2000)).toMatchObject({
      setting: { budget_tokens: 1500 },
    });
  });

  it('refuses thinking whose least budget does not fit, and sends nothing to a model off by default that is told nothing', () => {
    expect(resolveReasoning(budgetModel, { effort: 'minimal' }, 1200)).toEqual({
      ok: false,
      detail: expect.stringContaining('thinking needs at least 1024 tokens'),
    });
    expect(resolveReasoning(budgetModel, undefined, 1200)).toEqual({ ok: true, thinkingTokens: 0 });
  });

  it('bounds a default-on budget model told nothing, and turns it off when there is no room', () => {
    expect(resolveReasoning(gemini25, undefined, 100_000)).toMatchObject({
      setting: { budget_tokens: 24_576 },
    });
    expect(resolveReasoning(gemini25, undefined, 800)).toMatchObject({ setting: { budget_tokens: 600 } });
    expect(resolveReasoning(gemini25, { enabled: false }, 800)).toMatchObject({
      setting: { enabled: false },
    });
  });

  it('gives a level model the level covering a budget', () => {
    expect(resolveReasoning(gemini3, { budget_tokens: 30_000 }, 64_000)).toMatchObject({
      setting: { effort: 'high' },
    });
    expect(resolveReasoning(gemini3, { budget_tokens: 2000 }, 64_000)).toMatchObject({
      setting: { effort: 'low' },
    });
  });
});

describe('reasoningProblem', () => {
  it('names why a model cannot do what is asked of its thinking', () => {
    expect(reasoningProblem(simModel('plain'), { effort: 'low' })).toBe(
      'does not reason, and the request asks for reasoning',
    );
    expect(reasoningProblem(gemini3, { effort: 'medium' })).toBe(
      'takes reasoning effort low, high, not medium',
    );
    expect(reasoningProblem(gemini3, { enabled: false })).toContain('cannot be turned off');
    expect(reasoningProblem(simModel('r1', { capabilities: reasons }), { budget_tokens: 2000 })).toContain(
      'takes no effort or budget control',
    );
    expect(reasoningProblem(simModel('plain'), undefined)).toBeUndefined();
    expect(reasoningProblem(budgetModel, { effort: 'minimal' })).toBeUndefined();
  });
});
