// The admin token lives in this page's memory, and in this tab's sessionStorage only when the
// operator asks to stay signed in: never in a URL, never in a cookie, never in localStorage.

const SESSION_KEY = 'valve-console:admin-token';

let token: string | undefined;

export function currentToken(): string | undefined {
  return token;
}

export function signIn(value: string, remember: boolean): void {
  token = value;
  if (remember) sessionStorage.setItem(SESSION_KEY, value);
  else sessionStorage.removeItem(SESSION_KEY);
}

export function signOut(): void {
  token = undefined;
  sessionStorage.removeItem(SESSION_KEY);
}

/** The token a reload of this tab kept, if the operator asked for that. */
export function rememberedToken(): string | undefined {
  return sessionStorage.getItem(SESSION_KEY) ?? undefined;
}
