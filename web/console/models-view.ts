import type { ModelStatus, ModelStatusList } from '../../src/contracts/admin-models';
import { adminGet, describeFailure } from './admin-api';
import { type Child, el, emptyState, table } from './dom';
import { percent, timeOfDay, untilTime } from './format';

// Models: every catalog model, whether its provider has its key, where it runs, its price, what
// Valve observed of its latency and errors, and its circuit, refreshed every few seconds while shown.

export const REFRESH_MS = 5000;

function configured(model: ModelStatus): Child {
  if (model.configured) return model.simulated ? 'yes (simulator)' : 'yes';
  return el('span', { class: 'bad' }, `no: ${model.notConfiguredReason ?? 'not configured'}`);
}

function latency(model: ModelStatus): string {
  const observed = model.latency.observed;
  if (observed !== null) return `${observed.ttftMsP50} / ${observed.ttftMsP90} ms`;
  const catalog = model.latency.catalog;
  return `not yet observed (catalog ${catalog.ttftMsP50} / ${catalog.ttftMsP90} ms)`;
}

function circuit(model: ModelStatus, now: number): Child {
  const { circuit: state, circuitScope, retryAt } = model.health;
  const whose = circuitScope === 'provider' ? `, the whole provider ${model.provider}` : '';
  const detail =
    state === 'open'
      ? `${whose}: left out of plans; probe ${retryAt === null ? 'soon' : untilTime(retryAt, now)}`
      : state === 'probing'
        ? `${whose}: one request is let through to test it`
        : '';
  return el('span', {}, el('span', { class: `pill ${state}`, 'data-circuit': state }, state), detail);
}

export interface ModelsView {
  /** Shows the models now and every few seconds after; resolves once the first answer is shown. */
  start(): Promise<void>;
  stop(): void;
}

export function createModelsView(root: HTMLElement): ModelsView {
  const list = el('div', {});
  const status = el('p', { role: 'status', class: 'status' });
  root.replaceChildren(
    el('h2', {}, 'Models'),
    el(
      'p',
      { class: 'help' },
      'A circuit is closed while a model answers; three failures in a row open it, and plans leave the model out until its cooldown ends; then it is probing: one request is let through, and its success closes the circuit again.',
    ),
    status,
    list,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;

  async function load(): Promise<void> {
    try {
      const answer = await adminGet<ModelStatusList>('/v1/admin/models', ['at', 'models']);
      if (answer.models.length === 0) {
        list.replaceChildren(
          emptyState('The catalog lists no models. Set VALVE_CATALOG (see docs/operating.md).'),
        );
      } else {
        list.replaceChildren(
          table(
            'Every model of the catalog',
            [
              'Model',
              'Provider key',
              'Regions',
              'Price in / out per 1M tokens',
              'Latency p50 / p90',
              'Error rate',
              'Circuit',
              'Last error',
            ],
            answer.models.map((model) => [
              el('code', {}, `${model.provider}/${model.model}`),
              configured(model),
              model.regions.join(', '),
              `$${model.priceUsdPerMTok.input} / $${model.priceUsdPerMTok.output}`,
              latency(model),
              model.health.samples === 0 && model.health.errorRate === 0
                ? '—'
                : percent(model.health.errorRate),
              circuit(model, answer.at),
              model.health.lastErrorKind ?? '',
            ]),
            { id: 'models-table' },
          ),
        );
      }
      status.textContent = `Updated ${timeOfDay(answer.at)}; refreshed every ${REFRESH_MS / 1000} s while shown.`;
    } catch (error) {
      status.textContent = describeFailure(error);
    }
  }

  async function tick(): Promise<void> {
    await load();
    if (running) timer = setTimeout(() => void tick(), REFRESH_MS);
  }

  return {
    start() {
      if (running) return Promise.resolve();
      running = true;
      return tick();
    },
    stop() {
      running = false;
      clearTimeout(timer);
    },
  };
}
