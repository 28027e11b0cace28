/**
 * Process entry of `npm start`. Node's default for SIGHUP is to exit, and the documented reload
 * must never end the process: the listener (reload-signal.ts, which imports nothing) is in place
 * before anything else is even loaded, and the server, with every package it imports, comes in
 * by a dynamic import after it (the bundle keeps it in a chunk of its own).
 */
import './reload-signal.ts';

await import('./serve.ts');
