import { describe, expect, it } from 'vitest';
import type { z } from 'zod/mini';
import {
  contactPayload,
  contactSchema,
  forgotSchema,
  invitationProblems,
  loginSchema,
  MESSAGES,
  resetSchema,
  signupPayload,
  signupSchema,
} from './validation';

function errorsOf(schema: z.ZodMiniType, value: unknown): Record<string, string[]> {
  const result = schema.safeParse(value);
  const out: Record<string, string[]> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

describe('login form', () => {
  it('accepts valid credentials', () => {
    expect(errorsOf(loginSchema, { email: 'a@b.co', password: '123456' })).toEqual({});
  });
  it('reports both messages', () => {
    expect(errorsOf(loginSchema, { email: 'nope', password: '12345' })).toEqual({
      email: ['Please enter a valid email address.'],
      password: ['Password must be at least 6 characters.'],
    });
  });
  it('rejects an empty email', () => {
    expect(errorsOf(loginSchema, { email: '', password: '123456' }).email).toEqual([MESSAGES.email]);
  });
});

describe('forgot form', () => {
  it('requires a valid email', () => {
    expect(errorsOf(forgotSchema, { email: 'x' })).toEqual({ email: ['Please enter a valid email address.'] });
    expect(errorsOf(forgotSchema, { email: 'x@y.io' })).toEqual({});
  });
});

describe('reset form', () => {
  it('requires 6 characters and matching confirmation', () => {
    expect(errorsOf(resetSchema, { password: '123', confirmPassword: '1234' })).toEqual({
      password: ['Password must be at least 6 characters.'],
      confirmPassword: ["Passwords don't match"],
    });
    expect(errorsOf(resetSchema, { password: 'brand-new', confirmPassword: 'brand-new' })).toEqual({});
  });
  it('refuses a weak password with its first reason', () => {
    expect(errorsOf(resetSchema, { password: '123456', confirmPassword: '123456' })).toEqual({
      password: ['Password cannot be only numbers.'],
    });
  });
});

const validHomeowner = {
  role: 'homeowner',
  firstName: 'Jane',
  lastName: 'Doe',
  name: '',
  email: 'jane@example.com',
  phone: '',
  password: 'longenough',
  confirmPassword: 'longenough',
};

describe('sign-up form', () => {
  it('accepts a homeowner and a builder', () => {
    expect(errorsOf(signupSchema, validHomeowner)).toEqual({});
    expect(
      errorsOf(signupSchema, { ...validHomeowner, role: 'builder', firstName: '', lastName: '', name: 'Acme' }),
    ).toEqual({});
  });
  it('requires a role', () => {
    expect(errorsOf(signupSchema, { ...validHomeowner, role: '' }).role).toEqual(['Please select a role.']);
    expect(errorsOf(signupSchema, { ...validHomeowner, role: 'admin' }).role).toEqual(['Please select a role.']);
  });
  it('requires homeowner names', () => {
    expect(errorsOf(signupSchema, { ...validHomeowner, firstName: ' ', lastName: '' })).toEqual({
      firstName: ['First name is required'],
      lastName: ['Last name is required'],
    });
  });
  it('requires a builder name', () => {
    expect(errorsOf(signupSchema, { ...validHomeowner, role: 'builder', name: '  ' })).toEqual({
      name: ['Name is required'],
    });
  });
  it('checks email, password length and confirmation', () => {
    expect(
      errorsOf(signupSchema, { ...validHomeowner, email: 'bad', password: '1234567', confirmPassword: 'x' }),
    ).toEqual({
      email: ['Please enter a valid email address.'],
      password: ['Password must be at least 8 characters long.'],
      confirmPassword: ["Passwords don't match"],
    });
    expect(errorsOf(signupSchema, { ...validHomeowner, password: 'Password1', confirmPassword: 'Password1' })).toEqual({
      password: ['Password is too common. Choose one that is harder to guess.'],
    });
  });
  it('builds the request with empty strings for unused fields', () => {
    expect(signupPayload({ ...validHomeowner, role: 'builder', name: ' Acme ', phone: ' ' })).toEqual({
      role: 'builder',
      email: 'jane@example.com',
      password: 'longenough',
      confirmPassword: 'longenough',
      firstName: '',
      lastName: '',
      name: 'Acme',
      phone: '',
    });
    expect(signupPayload(validHomeowner).name).toBe('');
  });
});

const validContact = { name: 'Jane Doe', email: 'jane@example.com', phone: '', message: 'When is the next visit?' };

describe('contact form', () => {
  it('accepts a message without a phone', () => {
    expect(errorsOf(contactSchema, validContact)).toEqual({});
  });
  it('requires name, a valid email and a message', () => {
    expect(errorsOf(contactSchema, { name: ' ', email: '', phone: '', message: '\n ' })).toEqual({
      name: ['Name is required'],
      email: ['Please enter a valid email address.'],
      message: ['Message is required'],
    });
    expect(errorsOf(contactSchema, { ...validContact, email: 'jane@' })).toEqual({
      email: ['Please enter a valid email address.'],
    });
  });
  it('does not check the optional phone', () => {
    expect(errorsOf(contactSchema, { ...validContact, phone: 'call me maybe' })).toEqual({});
  });
  it('builds the request with a trimmed body and null for a blank phone', () => {
    expect(contactPayload({ name: ' Jane ', email: ' jane@example.com ', phone: '  ', message: ' Hi \n' })).toEqual({
      name: 'Jane',
      email: 'jane@example.com',
      phone: null,
      message: 'Hi',
    });
    expect(contactPayload({ ...validContact, phone: ' (555) 123-4567 ' }).phone).toBe('(555) 123-4567');
  });
});

describe('invitation into a company', () => {
  it('needs a name and a valid email; the phone is optional', () => {
    expect(invitationProblems({ name: 'Sam Lee', email: 'sam@example.com' })).toEqual({});
    expect(invitationProblems({ name: '  ', email: 'sam@example' })).toEqual({ name: MESSAGES.name, email: MESSAGES.email });
    expect(invitationProblems({ name: 'Sam', email: ' Sam@Example.com ' })).toEqual({});
  });
});
