// Selector hooks over the store. Each reads one property of the snapshot so a
// component re-renders only when that property changes (valtio gotcha: never
// use a whole snapshot without property access).
import { useSnapshot } from 'valtio'
import type { ListName } from './state'
import { state } from './state'

/** The user, or null until known. */
export const useUser = () => useSnapshot(state).user

/** "producer", "distributor", or undefined while unknown. */
export const useUserType = () => useSnapshot(state).user?.type

/** The login email while it waits for its confirmation (PRODUCT §13), else null. */
export const useUnconfirmedEmail = () => {
  const user = useSnapshot(state).user
  return user && user.emailConfirmed === false ? user.email : null
}

/** The stored email; null when logged out. */
export const useEmail = () => useSnapshot(state).email

/** Whether an email is stored (the visitor counts as logged in). */
export const useIsLoggedIn = () => useSnapshot(state).email !== null

/** Whether a full user load succeeded. */
export const useIsLoaded = () => useSnapshot(state).loaded

/** The loading state of one list. */
export const useLoading = (list: ListName) => useSnapshot(state).loading[list]

/** The message of the last failed user load. */
export const useLoadError = () => useSnapshot(state).loadError

/** The remembered origin of a redirect to login. */
export const useOrigin = () => useSnapshot(state).origin

/** Whether the server rejected the stored session. */
export const useSessionRejected = () => useSnapshot(state).rejected

export const useNeeds = () => useSnapshot(state).needs
export const useProducts = () => useSnapshot(state).products
export const useFamilies = () => useSnapshot(state).families
export const useDistributors = () => useSnapshot(state).distributors
export const useProducers = () => useSnapshot(state).producers
export const useEvents = () => useSnapshot(state).events
export const useOrders = () => useSnapshot(state).orders

/** The shop's needs a producer is viewing, with the shop's id (`state.shopNeeds`). */
export const useShopNeeds = () => useSnapshot(state).shopNeeds
