// Loads schemas/*.json (the meta-schema and roles.json aside) and validates them; a bad file stops the start.
export { loadManifestDir } from '../kernel/manifest/read-dir.ts';
