import { create } from 'zustand';
import { THEME_COLOR_DEFAULT } from '@kefu/protocol';
import { changeLanguage, i18n } from '../lib/i18n';
import { storage } from '../lib/storage';

interface UiState {
  themeColor: string;
  language: string;
  setThemeColor: (c: string) => void;
  setLanguage: (l: string) => Promise<void>;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** Theme colour (spec section 1: kept in local storage, applied everywhere) and UI language. */
export const useUi = create<UiState>((set) => ({
  themeColor: ((c) => (c && HEX.test(c) ? c : THEME_COLOR_DEFAULT))(storage.get('themeColor')),
  language: 'zh',
  setThemeColor(c) {
    if (!HEX.test(c)) return;
    storage.set('themeColor', c);
    set({ themeColor: c });
  },
  async setLanguage(l) {
    await changeLanguage(l);
    set({ language: l });
  },
}));

/** Called once i18n is initialised so the store and i18next agree. */
export const syncLanguage = (): void => useUi.setState({ language: i18n.language });
