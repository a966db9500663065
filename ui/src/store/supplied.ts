// Producers' own products (PRODUCT §3 "Producers' products"): the
// producer's list ("Mes produits", `GET /api/supplied-products`), each change
// answering the product, its photo (`PUT …/{id}/photo`, base64), and a
// producer's products as shops see them (`GET
// /api/producers/{producerId}/supplied-products`), kept per producer. Their
// own endpoints and their own valtio proxy, read through useSupplied():
// nothing of it travels in the user load.
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import { photoForUpload } from '../reception/photo'
import type { components } from '../schema.gen'
import type { LoadStatus } from './state'

export type SuppliedProduct = components['schemas']['SuppliedProduct']
export type SuppliedLabel = SuppliedProduct['labels'][number]

/** What the form sends (the daemon's SuppliedProductBody). */
export interface SuppliedInput {
  productType: string
  name: string
  packaging: string
  unitQuantity: number
  labels: SuppliedLabel[]
  certifier: string
  months: number[]
  refPrice: number
}

/** The labels a product may carry, in the order the form lists them (core/supplied Labels). */
export const LABELS: readonly { id: SuppliedLabel; name: string; organic: boolean }[] = [
  { id: 'ab', name: 'Agriculture biologique (AB)', organic: true },
  { id: 'conversion', name: "En conversion vers l'agriculture biologique", organic: true },
  { id: 'label-rouge', name: 'Label Rouge', organic: false },
  { id: 'aop', name: 'AOP / AOC', organic: false },
  { id: 'igp', name: 'IGP', organic: false },
  { id: 'hve', name: 'Haute Valeur Environnementale (HVE)', organic: false },
  { id: 'nature-progres', name: 'Nature & Progrès', organic: false },
]

/** A label's short name on a badge. */
export function labelBadge(id: SuppliedLabel): string {
  switch (id) {
    case 'ab':
      return 'AB'
    case 'conversion':
      return 'En conversion'
    case 'aop':
      return 'AOP'
    case 'hve':
      return 'HVE'
    default:
      return LABELS.find((l) => l.id === id)?.name ?? id
  }
}

export const SUPPLIED_TEXTS = {
  saved: 'Produit enregistré',
  failed: "Échec de l'enregistrement du produit",
  retired: 'Produit retiré de la vente',
  retireFailed: 'Échec du retrait du produit',
  photoSaved: 'Photo enregistrée',
  photoFailed: "Échec de l'envoi de la photo",
} as const

export interface SuppliedState {
  mine: SuppliedProduct[]
  status: LoadStatus
  error: string | null
  /** The list was read once at least. */
  loaded: boolean
  /** A producer's products as its page shows them, by producer id. */
  byProducer: Record<string, SuppliedProduct[]>
  /** What the page of a producer whose account is closed says, by producer id (the daemon's 404). */
  closed: Record<string, string>
}

export const suppliedState = proxy<SuppliedState>({
  mine: [],
  status: 'idle',
  error: null,
  loaded: false,
  byProducer: {},
  closed: {},
})

export const useSupplied = () => useSnapshot(suppliedState)

const path = '/api/supplied-products'

/** Reads the producer's own products. */
export async function loadMine(): Promise<void> {
  suppliedState.status = 'busy'
  try {
    const list = await api.get<SuppliedProduct[]>(path)
    if (!Array.isArray(list)) throw new Error('produits illisibles')
    suppliedState.mine = list
    suppliedState.status = 'idle'
    suppliedState.error = null
    suppliedState.loaded = true
  } catch (err) {
    suppliedState.status = 'error'
    suppliedState.error = errorMessage(err)
  }
}

/** Reads (again) a producer's products as shops see them; a failure leaves them unknown. */
export async function loadProducer(producerId: string): Promise<void> {
  try {
    const list = await api.get<SuppliedProduct[]>(`/api/producers/${encodeURIComponent(producerId)}/supplied-products`)
    if (Array.isArray(list)) suppliedState.byProducer[producerId] = list
  } catch (err) {
    // A closed producer's page says so (404 with the daemon's French text);
    // otherwise the page says nothing of products it could not read.
    if (err instanceof ApiError && err.status === 404 && err.detail) {
      suppliedState.closed[producerId] = err.detail
      suppliedState.byProducer[producerId] = []
    }
  }
}

/** Puts a product in the list, by name, replacing its older copy. */
function upsert(p: SuppliedProduct) {
  const rest = suppliedState.mine.filter((m) => m._id !== p._id)
  suppliedState.mine = [...rest, p].sort((a, b) => a.name.localeCompare(b.name, 'fr'))
}

/** What a change reports: the product saved, or the daemon's field errors ("name" → message). */
export type SuppliedOutcome =
  { product: SuppliedProduct; errors?: undefined } | { product?: undefined; errors: Record<string, string> }

async function change(
  send: () => Promise<SuppliedProduct>,
  texts: { ok: string; failed: string },
): Promise<SuppliedOutcome> {
  const toast = progress('Modification en cours')
  try {
    const product = await send()
    upsert(product)
    toast.success(texts.ok)
    return { product }
  } catch (err) {
    toast.failure(texts.failed, errorMessage(err))
    return { errors: err instanceof ApiError ? err.fieldErrors() : {} }
  }
}

/** Lists a new product, or saves the changes of one (`id`). */
export function saveProduct(input: SuppliedInput, id?: string): Promise<SuppliedOutcome> {
  const texts = { ok: SUPPLIED_TEXTS.saved, failed: SUPPLIED_TEXTS.failed }
  return change(
    () =>
      id
        ? api.put<SuppliedProduct>(`${path}/${encodeURIComponent(id)}`, input)
        : api.post<SuppliedProduct>(path, input),
    texts,
  )
}

/** Sends a product's photo, made small and JPEG in the browser first. */
export async function savePhoto(id: string, file: File): Promise<SuppliedOutcome> {
  const photo = await photoForUpload(file)
  return change(() => api.put<SuppliedProduct>(`${path}/${encodeURIComponent(id)}/photo`, { photo }), {
    ok: SUPPLIED_TEXTS.photoSaved,
    failed: SUPPLIED_TEXTS.photoFailed,
  })
}

/** Takes a product off sale. */
export async function retireProduct(id: string): Promise<boolean> {
  const toast = progress('Modification en cours')
  try {
    await api.del<unknown>(`${path}/${encodeURIComponent(id)}`)
    suppliedState.mine = suppliedState.mine.filter((m) => m._id !== id)
    toast.success(SUPPLIED_TEXTS.retired)
    return true
  } catch (err) {
    toast.failure(SUPPLIED_TEXTS.retireFailed, errorMessage(err))
    return false
  }
}
