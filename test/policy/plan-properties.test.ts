import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { privacyLevels } from '../../src/contracts/reason-request';
import { modelErrorKinds } from '../../src/model/model-error';
import { createBudget } from '../../src/policy/budget';
import type { Catalog } from '../../src/policy/catalog';
import { planRequest } from '../../src/policy/plan-request';
import { modelFailure } from '../../src/providers/model-error';
import { runAttempts } from '../../src/reason/run-attempts';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';

const regions = ['us', 'eu', 'ap'] as const;

const catalogArb: fc.Arbitrary<Catalog> = fc
  .array(
    fc.record({
      regions: fc.subarray([...regions], { minLength: 1 }),
      maxPrivacy: fc.constantFrom(...privacyLevels),
      input: fc.double({ min: 0, max: 20, noNaN: true }),
      output: fc.double({ min: 0.01, max: 80, noNaN: true }),
      quality: fc.integer({ min: 0, max: 100 }),
      contextTokens: fc.integer({ min: 1000, max: 200_000 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((specs) =>
    catalogOf(
      specs.map((s, i) =>
        simModel(`m${i}`, {
          regions: s.regions,
          maxPrivacy: s.maxPrivacy,
          priceUsdPerMTok: { input: s.input, output: s.output },
          quality: s.quality,
          contextTokens: s.contextTokens,
        }),
      ),
    ),
  );

const policyArb = fc.record(
  {
    prefer: fc.constantFrom('quality' as const, 'cost' as const, 'speed' as const),
    regions: fc.subarray([...regions], { minLength: 1 }),
    pinnedIndex: fc.integer({ min: 0, max: 11 }),
    allowFallback: fc.boolean(),
    maxCostUsd: fc.double({ min: 0, max: 0.5, noNaN: true }),
  },
  { requiredKeys: ['prefer'] },
);

const needsArb = fc.record({
  tools: fc.constant(false),
  json: fc.constant(false),
  privacy: fc.constantFrom(...privacyLevels),
  inputTokens: fc.integer({ min: 0, max: 50_000 }),
});

describe('plan invariants (fast-check)', () => {
  it('never plans a model outside regions, above its privacy, other than the pin without fallback', () => {
    fc.assert(
      fc.property(catalogArb, policyArb, needsArb, (catalog, p, needs) => {
        const pinnedModel = catalog.models[(p.pinnedIndex ?? 0) % catalog.models.length];
        const policy = {
          prefer: p.prefer,
          regions: p.regions,
          allowFallback: p.allowFallback,
          maxCostUsd: p.maxCostUsd,
          pinned:
            p.pinnedIndex === undefined || !pinnedModel
              ? undefined
              : { provider: 'sim', model: pinnedModel.model },
        };
        const plan = planRequest({
          policy,
          needs,
          catalog,
          notConfigured: () => undefined,
          left: { costUsd: policy.maxCostUsd ?? Number.POSITIVE_INFINITY, timeMs: Number.POSITIVE_INFINITY },
        });
        for (const attempt of plan.attempts) {
          if (policy.regions) expect(policy.regions).toContain(attempt.region);
          expect(attempt.entry.regions).toContain(attempt.region);
          expect(privacyLevels.indexOf(needs.privacy)).toBeLessThanOrEqual(
            privacyLevels.indexOf(attempt.entry.maxPrivacy),
          );
          if (policy.maxCostUsd !== undefined)
            expect(attempt.worstCaseUsd).toBeLessThanOrEqual(policy.maxCostUsd);
        }
        if (policy.allowFallback === false) expect(plan.attempts.length).toBeLessThanOrEqual(1);
        if (policy.pinned && policy.allowFallback === false) {
          for (const attempt of plan.attempts) expect(attempt.model).toBe(policy.pinned.model);
        }
        if (policy.pinned && plan.attempts.some((a) => a.model === policy.pinned?.model)) {
          expect(plan.attempts[0]?.model).toBe(policy.pinned.model);
        }
        // Every catalog model is either planned or excluded with a reason, never both, never lost.
        const planned = new Set(plan.attempts.map((a) => a.model));
        const excluded = new Set(plan.excluded.map((e) => e.model));
        for (const model of catalog.models) {
          if (policy.allowFallback !== false)
            expect(planned.has(model.model) !== excluded.has(model.model)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never spends more than maxCostUsd across the attempts actually started, retries and fallbacks included', async () => {
    const outcomeArb = fc.record({
      fail: fc.boolean(),
      kind: fc.constantFrom(...modelErrorKinds),
      dispatch: fc.constantFrom('not_sent' as const, 'sent' as const, 'streaming' as const),
      billedShare: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(
        catalogArb,
        fc.double({ min: 0, max: 0.2, noNaN: true }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.array(outcomeArb, { minLength: 1, maxLength: 40 }),
        async (catalog, maxCostUsd, inputTokens, outcomes) => {
          const needs = { tools: false, json: false, privacy: 'public' as const, inputTokens };
          const plan = planRequest({
            policy: { maxCostUsd },
            needs,
            catalog,
            notConfigured: () => undefined,
            left: { costUsd: maxCostUsd, timeMs: Number.POSITIVE_INFINITY },
          });
          const budget = createBudget({ maxCostUsd }, 0);
          let call = 0;
          let started = 0;
          await runAttempts(
            plan,
            budget,
            async ({ attempt, maxTokens }) => {
              started++;
              const outcome = outcomes[call++ % outcomes.length] as (typeof outcomes)[number];
              const worst =
                (inputTokens * attempt.entry.priceUsdPerMTok.input +
                  maxTokens * attempt.entry.priceUsdPerMTok.output) /
                1e6;
              const billed = worst * outcome.billedShare;
              if (outcome.fail) {
                throw modelFailure({
                  kind: outcome.kind,
                  message: 'scripted',
                  dispatch: outcome.dispatch,
                  // A failure that reports what it was billed, as a provider's usage would.
                  ...(outcome.dispatch === 'sent' ? { costUsd: billed } : {}),
                } as never);
              }
              return { value: 'ok', usage: { input_tokens: inputTokens, output_tokens: 0 }, costUsd: billed };
            },
            { now: () => 0, sleep: async () => undefined, random: () => 0.5 },
          ).catch(() => undefined);
          expect(budget.spentUsd).toBeLessThanOrEqual(maxCostUsd + 1e-12);
          expect(started).toBeLessThanOrEqual(plan.attempts.length * 3);
        },
      ),
      { numRuns: 300 },
    );
  });
});
