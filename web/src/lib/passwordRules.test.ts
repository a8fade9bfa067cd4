import { describe, expect, it } from 'vitest';
import shared from '../../../protocol/fixtures/password-rules.json';
import { passwordProblems, passwordRules, type PasswordMinimum } from './passwordRules';

describe('password rules shared with the server', () => {
  it.each(shared.cases)('$password (min $min)', ({ password, min, problems }) => {
    expect(passwordProblems(password, min as PasswordMinimum)).toEqual(problems);
  });
});

describe('password checklist', () => {
  it('lists every rule with whether it is met', () => {
    expect(passwordRules('12', 8).map((r) => [r.label, r.met])).toEqual([
      ['At least 8 characters', false],
      ['Not only numbers', false],
      ['Not one character repeated', true],
      ['Not a common password', true],
    ]);
    expect(passwordRules('Summit-2026', 6).every((r) => r.met)).toBe(true);
  });
});
