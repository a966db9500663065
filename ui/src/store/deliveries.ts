// Delivery actions (PRODUCT §7 delivery calls, §8 toasts): the shop's update
// and cancellation, the producer's claim, the shop's review. Each call
// answers the order, which replaces the stored one.
import { useMemo } from 'react'
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import type { ClaimType, Order } from '../types'
import { upsertOrder } from './merge'

/** The delivery rules in force (`GET /api/deliveries/settings`); PRODUCT's 12h until loaded. */
export interface DeliverySettings {
  /** "HH:MM", Europe/Paris. */
  lock: string
  /** "12h", "7h30". */
  lockLabel: string
  timeZone: string
  autovalidateHours: number
  /** A claim may be sent until the end of this many working days after the delivery date. */
  claimWorkingDays: number
  /** The French public holidays falling on a weekday ("YYYY-MM-DD"), which a claim window does not count. */
  holidays: string[]
}

export const deliverySettings = proxy<DeliverySettings>({
  lock: '12:00',
  lockLabel: '12h',
  timeZone: 'Europe/Paris',
  autovalidateHours: 48,
  claimWorkingDays: 2,
  holidays: [],
})

/** Reads the delivery rules once per page load; on failure the defaults stay. */
export async function loadDeliverySettings(): Promise<void> {
  try {
    Object.assign(deliverySettings, await api.get<DeliverySettings>('/api/deliveries/settings'))
  } catch (err) {
    console.error('delivery settings:', err)
  }
}

/** The lock time "HH:MM" in force. */
export const useDeliveryLock = () => useSnapshot(deliverySettings).lock

/** The lock time in force as the interface says it ("12h"). */
export const useDeliveryLockLabel = () => useSnapshot(deliverySettings).lockLabel

/** The hours after which an unanswered claim that lowers the amount is accepted. */
export const useAutovalidateHours = () => useSnapshot(deliverySettings).autovalidateHours

/** The claim window in force: working days after the delivery, and the weekday holidays. */
export function useClaimWindow(): { workingDays: number; holidays: readonly string[] } {
  const s = useSnapshot(deliverySettings)
  return useMemo(() => ({ workingDays: s.claimWorkingDays, holidays: s.holidays }), [s.claimWorkingDays, s.holidays])
}

export const DELIVERY_TOASTS = {
  updateProgress: 'Modification en cours',
  updated: 'Modification effectuée',
  updateFailed: 'Échec de la modification',
  cancelProgress: 'Annulation en cours',
  cancelled: 'Annulation effectuée',
  cancelFailed: "Échec de l'annulation",
  claimProgress: 'Déclaration en cours',
  claimed: "Demande d'avoir envoyée",
  claimFailed: 'Échec de la demande',
  reviewProgress: 'Traitement en cours',
  reviewed: 'Votre réponse a été correctement enregistrée',
  // PRODUCT §8: a failed review reads as a failed cancellation.
  reviewFailed: "Échec de l'annulation",
} as const

/** Body of the shop's update. */
export interface DeliveryUpdate {
  date?: string
  deliveryLines?: { _id: string; quantitySent: number }[]
}

/** Body of the producer's claim. */
export interface ClaimRequest {
  deliveryLines: { _id: string; quantityClaimed: number; claimType: ClaimType | ''; claimComment: string }[]
}

/** The outcome of an action: done, or failed with the daemon's field messages. */
export type ActionResult = { ok: true } | { ok: false; fieldErrors: Record<string, string> }

const path = (op: string, orderId: string, deliveryId: string) =>
  `/api/deliveries/${op}/${encodeURIComponent(orderId)}/${encodeURIComponent(deliveryId)}`

async function call(
  op: string,
  orderId: string,
  deliveryId: string,
  body: unknown,
  texts: { progress: string; success: string; failure: string },
): Promise<ActionResult> {
  const toast = progress(texts.progress)
  try {
    upsertOrder(await api.put<Order>(path(op, orderId, deliveryId), body))
    toast.success(texts.success)
    return { ok: true }
  } catch (err) {
    toast.failure(texts.failure, errorMessage(err))
    return { ok: false, fieldErrors: err instanceof ApiError ? err.fieldErrors() : {} }
  }
}

/** The shop changes a planned delivery's date or sent quantities. */
export function updateDelivery(orderId: string, deliveryId: string, update: DeliveryUpdate): Promise<ActionResult> {
  return call('update', orderId, deliveryId, update, {
    progress: DELIVERY_TOASTS.updateProgress,
    success: DELIVERY_TOASTS.updated,
    failure: DELIVERY_TOASTS.updateFailed,
  })
}

/** The shop cancels a planned delivery. */
export function cancelDelivery(orderId: string, deliveryId: string): Promise<ActionResult> {
  return call('cancel', orderId, deliveryId, undefined, {
    progress: DELIVERY_TOASTS.cancelProgress,
    success: DELIVERY_TOASTS.cancelled,
    failure: DELIVERY_TOASTS.cancelFailed,
  })
}

/** The producer sends or modifies a claim. */
export function sendClaim(orderId: string, deliveryId: string, claim: ClaimRequest): Promise<ActionResult> {
  return call('claim', orderId, deliveryId, claim, {
    progress: DELIVERY_TOASTS.claimProgress,
    success: DELIVERY_TOASTS.claimed,
    failure: DELIVERY_TOASTS.claimFailed,
  })
}

/** The shop accepts or refuses a pending claim. */
export function reviewClaim(orderId: string, deliveryId: string, accepted: boolean): Promise<ActionResult> {
  return call(
    'review',
    orderId,
    deliveryId,
    { accepted },
    {
      progress: DELIVERY_TOASTS.reviewProgress,
      success: DELIVERY_TOASTS.reviewed,
      failure: DELIVERY_TOASTS.reviewFailed,
    },
  )
}
