import { describe, expect, it } from 'vitest';
import { regexes, z } from 'zod/mini';
import { EMAIL_PATTERN, isEmail } from './fieldChecks';

describe('isEmail', () => {
  it("is zod's z.email(), so forms with and without a schema agree", () => {
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source);
    expect(EMAIL_PATTERN.flags).toBe(regexes.email.flags);
    for (const value of ['a@b.co', ' jane.doe+x@example.com ', 'x@y', 'nope', '', 'a..b@c.io', "o'neil@site.ie"]) {
      expect(isEmail(value)).toBe(z.email().safeParse(value.trim()).success);
    }
  });
});
