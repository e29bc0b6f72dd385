export const sidebarStorageKey = 'sidebarCollapsed';

/** Expanded on first use; afterwards as the user left it. */
export const readSidebarCollapsed = (): boolean => {
  try {
    return localStorage.getItem(sidebarStorageKey) === 'true';
  } catch {
    return false;
  }
};

export const saveSidebarCollapsed = (collapsed: boolean): void => {
  try {
    localStorage.setItem(sidebarStorageKey, String(collapsed));
  } catch {
    // Storage may be refused (private modes); the choice then lasts for this page.
  }
};
