// Vite bundles a stylesheet imported for its side effect; nothing is imported from it.
declare module '*.css';
