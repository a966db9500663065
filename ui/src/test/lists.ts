import { state } from '../store/state'

/**
 * Marks the screens' lists as read whole (store/lists.ts, issue 42): a test that
 * puts needs, orders or events in the store renders its screen with them,
 * the screen reading nothing more from the daemon.
 */
export function holdLists(): void {
  state.fetched = { needs: true, orders: true, events: true }
}
