/**
 * The state of the quota store's Redis connections as the store last told it (stores/redis.ts
 * `RedisObserver`): readiness and metrics read it here, so a probe every second costs no command.
 * Empty for the memory store, which has no state to tell.
 */
import type { Holds } from '../stores/index.ts';
import type { RedisObserver } from '../stores/redis.ts';

export interface RedisState {
  holds: Holds;
  connected: boolean;
  breakerOpen: boolean;
}

export interface StoreState {
  /** The observer of one Redis of the store, for `createStore`. */
  observe(holds: Holds): RedisObserver;
  /** Every Redis the store opened, as last told. */
  redis(): readonly RedisState[];
}

export interface StoreStateOptions {
  /** Also told of every command's round trip (metrics). */
  roundTrip?: ((holds: Holds, seconds: number) => void) | undefined;
}

export function createStoreState(options: StoreStateOptions = {}): StoreState {
  const states: RedisState[] = [];
  const { roundTrip } = options;
  return {
    observe(holds) {
      const state: RedisState = { holds, connected: false, breakerOpen: false };
      states.push(state);
      return {
        connection: (ready) => { state.connected = ready; },
        breaker: (open) => { state.breakerOpen = open; },
        roundTrip: roundTrip ? (seconds) => roundTrip(holds, seconds) : () => {},
      };
    },
    redis: () => states,
  };
}
