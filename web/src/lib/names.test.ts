import { describe, expect, it } from 'vitest';
import {
  byline,
  adminWelcomeName,
  builderTitle,
  capitalise,
  displayName,
  emailLocalPart,
  nameParts,
  homeownerWelcomeName,
  welcomeHeading,
} from './names';

describe('displayName', () => {
  it('capitalises first and last name', () => {
    expect(displayName({ firstName: 'jane', lastName: 'doe', email: 'j@x.io' })).toBe('Jane Doe');
  });
  it('falls back to the first name alone', () => {
    expect(displayName({ firstName: 'jane', lastName: ' ', email: 'j@x.io' })).toBe('Jane');
  });
  it('uses the name as typed when there are no first/last names (builders)', () => {
    expect(displayName({ name: 'acme homes', email: 'b@x.io' })).toBe('acme homes');
    expect(displayName({ name: ' ACC builders ', email: 'b@x.io' })).toBe('ACC builders');
  });
  it('falls back to the capitalised email local part', () => {
    expect(displayName({ email: 'homeowner@sitecast.test' })).toBe('Homeowner');
  });
  it('is empty for no person', () => {
    expect(displayName(null)).toBe('');
  });
});

describe('welcome names', () => {
  it('admin: first name, else first word of name, else Admin', () => {
    expect(adminWelcomeName({ firstName: 'Ada', name: 'Grace Hopper' })).toBe('Ada');
    expect(adminWelcomeName({ name: 'Grace Hopper' })).toBe('Grace');
    expect(adminWelcomeName({ email: 'a@b.c' })).toBe('Admin');
    expect(adminWelcomeName(null)).toBe('Admin');
  });
  it('homeowner: first name, else first word of name, else email local part, else User', () => {
    expect(homeownerWelcomeName({ firstName: 'Sam', name: 'Sam Lee' })).toBe('Sam');
    expect(homeownerWelcomeName({ name: '  Sam  Lee' })).toBe('Sam');
    expect(homeownerWelcomeName({ email: 'sam.lee@example.com' })).toBe('sam.lee');
    expect(homeownerWelcomeName({ email: '' })).toBe('User');
    expect(homeownerWelcomeName(undefined)).toBe('User');
  });
  it('builder: name or Builder', () => {
    expect(builderTitle({ name: 'Acme Homes' })).toBe('Acme Homes');
    expect(builderTitle({ name: '' })).toBe('Builder');
  });
  it('welcomeHeading by role', () => {
    expect(welcomeHeading('admin', { firstName: 'Ada' })).toBe('Welcome back, Ada');
    expect(welcomeHeading('homeowner', { firstName: 'Sam' })).toBe('Welcome, Sam!');
    expect(welcomeHeading('builder', { name: 'Acme' })).toBe('Acme');
  });
});

describe('helpers', () => {
  it('capitalise keeps spacing', () => {
    expect(capitalise('mary ann')).toBe('Mary Ann');
  });
  it('emailLocalPart', () => {
    expect(emailLocalPart('x.y@z.com')).toBe('x.y');
    expect(emailLocalPart(null)).toBe('');
  });
});

describe('nameParts', () => {
  it('edits first and last name, splitting a one-piece name at the first space', () => {
    expect(nameParts({ firstName: 'Ada', lastName: 'Lee', name: 'x' })).toEqual({ firstName: 'Ada', lastName: 'Lee' });
    expect(nameParts({ name: 'Ada van Dyke' })).toEqual({ firstName: 'Ada', lastName: 'van Dyke' });
    expect(nameParts({ name: 'Cher' })).toEqual({ firstName: 'Cher', lastName: '' });
    expect(nameParts({})).toEqual({ firstName: '', lastName: '' });
  });
});

describe('byline', () => {
  it('names the company beside the person, unless it is the person', () => {
    expect(byline('Dana Ortiz', 'Summit Homes')).toBe('Dana Ortiz · Summit Homes');
    expect(byline('Summit Homes', 'Summit Homes')).toBe('Summit Homes');
    expect(byline('Jamie Carter', null)).toBe('Jamie Carter');
    expect(byline('Jamie Carter', '  ')).toBe('Jamie Carter');
  });
});
