// The whitelabel form's rules (SPEC 5), pure so they are unit-tested: required texts, required files on
// create, and on edit a file may be left out only when the stored asset is reachable at its SPEC 7 URL.
import { PROBLEM_TEXT, TYPE_TEXT, type Wording } from '../../kernel/manifest/error-text';

export const ERROR_HEADING = 'Пожалуйста исправьте указанные ошибки:';

export const TEXT_FIELDS = ['name', 'feUrl', 'deployConfiguration'] as const;

export type AssetField = 'imageHD' | 'imageFHD' | 'cssConfig';

/** The stored assets: where the server serves them (`{token}` is the size suffix) and the error when missing. */
export const ASSETS: { field: AssetField; url: (name: string) => string; missing: string }[] = [
  { field: 'imageHD', url: (name) => `/whitelabels/${name}_1280x720.png`, missing: 'Требуется загрузить изображение 1280x720' },
  { field: 'imageFHD', url: (name) => `/whitelabels/${name}_1920x1080.png`, missing: 'Требуется загрузить изображение 1920x1080' },
  { field: 'cssConfig', url: (name) => `/whitelabels/${name}/styles/indexHtml.css`, missing: 'Требуется загрузить CSS' },
];

export interface WhitelabelDraft {
  name: string;
  feUrl: string;
  deployConfiguration: string;
}

/** How the form names its fields and words a non-object: the field's title and the panel's `t`, in the panel's language. */
export interface WhitelabelWords {
  label: (field: (typeof TEXT_FIELDS)[number]) => string;
  t: Wording;
}

/**
 * The error list of the form, each field named by its title. `reachable` is null on create (every file is
 * required), else which stored assets answered. An empty list means the form may be sent.
 * @example whitelabelErrors({name: '', feUrl: 'x', deployConfiguration: '{}'}, new Set(), null, words)
 *   // ['Требуется указать Название', 'Требуется загрузить изображение 1280x720', ...] with Russian titles
 */
export function whitelabelErrors(draft: WhitelabelDraft, chosen: ReadonlySet<AssetField>, reachable: Partial<Record<AssetField, boolean>> | null, words: WhitelabelWords): string[] {
  const errors: string[] = [];
  for (const field of TEXT_FIELDS) if (!draft[field].trim()) errors.push(`Требуется указать ${words.label(field)}`);
  if (draft.deployConfiguration.trim() && !isJsonObject(draft.deployConfiguration)) {
    errors.push(words.t(PROBLEM_TEXT.type, { label: words.label('deployConfiguration'), what: words.t(TYPE_TEXT.object) }));
  }
  for (const asset of ASSETS) {
    if (chosen.has(asset.field)) continue;
    if (!reachable || !reachable[asset.field]) errors.push(asset.missing);
  }
  return errors;
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Asks the asset host for each stored asset of `name`; an answer other than 200 (or no answer) is unreachable. */
export async function reachableAssets(host: string, name: string, doFetch: typeof fetch = fetch): Promise<Record<AssetField, boolean>> {
  const base = host.replace(/\/+$/, '');
  const answers = await Promise.all(
    ASSETS.map(async ({ field, url }) => {
      try {
        const response = await doFetch(`${base}${url(name)}`, { method: 'HEAD', cache: 'no-store' });
        return [field, response.ok] as const;
      } catch {
        return [field, false] as const;
      }
    }),
  );
  return Object.fromEntries(answers) as Record<AssetField, boolean>;
}
