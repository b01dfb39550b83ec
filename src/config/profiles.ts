import { ConfigError } from '../errors.js';
import { PROFILES, type Profile } from '../requirements/types.js';
import type { Parser } from './values.js';

/** A --profile name: one of the profiles the catalog has requirements for. */
export const profileName: Parser<Profile> = (raw, { name }) => {
  const known = PROFILES.find((profile) => profile === raw.trim());
  if (!known)
    throw new ConfigError('CONFIG_INVALID', `${name} "${raw}" is not a profile of this suite`, `Pass one of: ${PROFILES.join(', ')}`);
  return known;
};
