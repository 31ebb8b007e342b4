// Vitest runs outside React's server environment; the real package would throw on import.
export {}
