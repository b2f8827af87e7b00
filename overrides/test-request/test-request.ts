// The Test request form's rules, apart from its drawing: which query the lookup gets (SPEC 7 "Test combination":
// platform as JSON with the name, empty fields left out) and how each `matchedBy` of docs/device-api.md reads.
import { toQuery } from '../../src/core/http/data-provider';
import { t } from '../../src/core/i18n/i18n';
import { parseIpv4 } from '../../kernel/rules/ip';

export interface TestRequestForm {
  appInstallId: string;
  ipAddress: string;
  whitelabel: string;
  platform: string;
  resolution: string;
}

export const EMPTY_FORM: TestRequestForm = { appInstallId: '', ipAddress: '', whitelabel: '', platform: '', resolution: '' };

/** The lookup's parameters, in the order of SPEC 7: `lookupParams({...EMPTY_FORM, platform: 'tizen'})` -> `{platform: '{"name":"tizen"}'}`. */
export function lookupParams(form: TestRequestForm): Record<string, string> {
  const trimmed = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v.trim()])) as unknown as TestRequestForm;
  const params: Record<string, string> = {};
  if (trimmed.platform) params.platform = JSON.stringify({ name: trimmed.platform });
  for (const field of ['ipAddress', 'appInstallId', 'whitelabel', 'resolution'] as const) if (trimmed[field]) params[field] = trimmed[field];
  return params;
}

/** The address the new tab opens: `lookupUrl('http://x', '/v1/combination/get', form)`. */
export function lookupUrl(backendUrl: string, path: string, form: TestRequestForm): string {
  return `${backendUrl.replace(/\/+$/, '')}${path}${toQuery(lookupParams(form))}`;
}

/** The IP field's problem, or null: empty is fine, otherwise a dotted IPv4 address. */
export function ipProblem(text: string): string | null {
  const value = text.trim();
  return value === '' || parseIpv4(value) !== null ? null : t('An IPv4 address, e.g. 203.0.113.9');
}

/** The rule each `matchedBy` names, in the panel's language. */
export const MATCHED_BY: Record<string, () => string> = {
  device: () => t('A combination for this installation GUID (rule 1)'),
  ip: () => t('A combination for this IP address (rule 2)'),
  experiment: () => t('The group of an active A/B experiment the device belongs to (rule 3)'),
  published: () => t('The published combination of this whitelabel and platform (rule 4)'),
  latest: () => t('The newest available build within the max versions (rule 5)'),
};
