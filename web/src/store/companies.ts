import type { StateCreator } from 'zustand';
import type { Company } from '../protocol/types';
import { isNewer, newerWins } from '../sync/versions';
import type { AppState } from './index';

export interface CompaniesSlice {
  /**
   * Builder companies this user may see, by id: admins all of them, a
   * builder their own (with its members), homeowners none.
   */
  companies: Record<string, Company>;
  /** Versions of companies deleted since the last snapshot; older updates stay dead. */
  companyTombstones: Record<string, number>;
  companiesLoaded: boolean;
  /** On every Hello (reconnects included) the snapshot replaces the mirror. */
  companiesReplaced: (companies: Company[]) => void;
  /** An event or reply carried a company; a version older than the one held is ignored. */
  companyUpserted: (company: Company) => void;
  companyRemoved: (id: string, version: number) => void;
  companiesCleared: () => void;
}

export const createCompaniesSlice: StateCreator<AppState, [], [], CompaniesSlice> = (set) => ({
  companies: {},
  companyTombstones: {},
  companiesLoaded: false,
  companiesReplaced: (companies) =>
    set({
      companies: Object.fromEntries(companies.map((c) => [c.id, c])),
      companyTombstones: {},
      companiesLoaded: true,
    }),
  companyUpserted: (company) =>
    set((state) => {
      const held = state.companies[company.id];
      const next = newerWins(held, company, state.companyTombstones[company.id]);
      return next === held || !next ? state : { companies: { ...state.companies, [company.id]: next } };
    }),
  companyRemoved: (id, version) =>
    set((state) => {
      if (!isNewer(state.companies[id], { version })) return state;
      const companies = { ...state.companies };
      delete companies[id];
      return { companies, companyTombstones: { ...state.companyTombstones, [id]: version } };
    }),
  companiesCleared: () => set({ companies: {}, companyTombstones: {}, companiesLoaded: false }),
});

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Companies by name (then id, so equal names keep one order). */
export function sortCompanies(companies: Record<string, Company> | Company[]): Company[] {
  return (Array.isArray(companies) ? [...companies] : Object.values(companies)).sort(
    (a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
