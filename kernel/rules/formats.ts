// The string formats of record schemas beyond ajv-formats (docs/manifests.md), one definition each: the server's
// input validation (server/core/input.ts) and the panel's precompiled form validators both register these.
import { IPV4_CIDR } from './ip.ts';

/** A version XX.YY.ZZ (one or two digits each): `SEMVER.test('01.20.34') === true`. */
export const SEMVER = /^\d{1,2}\.\d{1,2}\.\d{1,2}$/;
/** A version X.Y.Z of any digits (a build's version). */
export const VERSION3 = /^\d+\.\d+\.\d+$/;

/** format name -> pattern, for ajv's addFormat and RJSF's customFormats. */
export const CUSTOM_FORMATS: Record<string, RegExp> = {
  semver: SEMVER,
  version3: VERSION3,
  ipv4cidr: IPV4_CIDR,
};
