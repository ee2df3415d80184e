const KEY = "fromUpgrade";

/** Spec §2: the upgrade intent is stored in session and local storage before going to sign-in. */
export function rememberUpgradeIntent(): void {
  sessionStorage.setItem(KEY, "true");
  localStorage.setItem(KEY, "true");
}

/** Reads the stored flag once and clears it (spec §2: "cleared after being read"). */
export function takeUpgradeIntent(): boolean {
  const found = sessionStorage.getItem(KEY) === "true" || localStorage.getItem(KEY) === "true";
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
  return found;
}
