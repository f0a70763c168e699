import type { PrivacyLevel } from '../contracts/reason-request';
import { privacyLevels } from '../contracts/reason-request';
import type { Catalog } from '../policy/catalog';
import type { Exclusion } from '../policy/plan-types';

// `valve.privacy` is the sensitivity of the messages themselves. Today's planner derives the privacy
// it needs from context items only, so the door plans over the models allowed that level and lists
// the others as excluded for `privacy`, in the same decision trace the receipt commits to.

export interface PrivacyScope {
  catalog: Catalog;
  excluded: Exclusion[];
}

export function scopeToPrivacy(catalog: Catalog, privacy: PrivacyLevel | undefined): PrivacyScope {
  if (privacy === undefined) return { catalog, excluded: [] };
  const rank = privacyLevels.indexOf(privacy);
  const allowed = (level: PrivacyLevel) => privacyLevels.indexOf(level) >= rank;
  return {
    catalog: { ...catalog, models: catalog.models.filter((model) => allowed(model.maxPrivacy)) },
    excluded: catalog.models
      .filter((model) => !allowed(model.maxPrivacy))
      .map((model) => ({
        provider: model.provider,
        model: model.model,
        reason: 'privacy',
        detail: `allowed up to ${model.maxPrivacy}, the messages are ${privacy}`,
      })),
  };
}
