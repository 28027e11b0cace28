/**
 * Closing a connection whose client may still be sending, without losing the last answer
 * (RFC 9112 §9.6, "staged" close; what nginx's lingering_close and Go's net/http do): closing a
 * socket with unread data makes the kernel send a reset, and a reset discards whatever the client
 * has not read yet, the answer included. So the answer goes out with a FIN, what still arrives is
 * read and dropped, and the socket is destroyed when the client closes its side or after LINGER_MS.
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** How long a closing connection may keep sending before it is cut. */
export const LINGER_MS = 1000;

/** Ends `socket` after `last` (or after what was already written) and lingers as above. */
export function closeLingering(socket: Duplex, last?: Buffer): void {
  socket.on('error', () => socket.destroy());
  socket.end(last);
  socket.on('end', () => socket.destroy());
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * For a request answered with `Connection: close` before its body was read: once such an answer
 * is written, Node ends the connection with `socket.destroySoon()`, an immediate close. This
 * connection closes lingering instead (it serves no request after this answer).
 */
export function lingerOnClose(socket: Socket): void {
  (socket as Socket & { destroySoon(): void }).destroySoon = () => closeLingering(socket);
}
