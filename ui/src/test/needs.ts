// Sample products and needs for planner tests.
import type { Need, Product, Proposal } from '../types'

export const products: Product[] = [
  { _id: 'tomate', name: 'Tomate', family: 'legumes', vatRate: 550, unit: 'kg', refPrice: 2.1 },
  { _id: 'pomme', name: 'Pomme', family: 'fruits', vatRate: 550, unit: 'kg', refPrice: 1.6 },
  { _id: 'peche', name: 'Pêche', family: 'fruits', vatRate: 550, unit: 'kg', refPrice: 3.2 },
  { _id: 'melon', name: 'Melon', family: 'fruits', vatRate: 550, unit: 'un', refPrice: 2 },
  { _id: 'chou-fleur', name: 'Chou-fleur', family: 'legumes', vatRate: 550, unit: 'un', refPrice: 1.9 },
]

let counter = 0

/** A need with no proposal; `extra` overrides any field. */
export function need(product: string, date: string, quantity: number, extra: Partial<Need> = {}): Need {
  counter += 1
  const proposals = extra.proposals ?? []
  const accepted = extra.quantityAccepted ?? 0
  const proposed = extra.quantityProposed ?? 0
  return {
    _id: `n${counter}`,
    product,
    distributor: 'd1',
    date,
    quantity,
    quantityAccepted: accepted,
    quantityProposed: proposed,
    quantityAvailable: quantity - accepted - proposed,
    updatedAt: '2026-11-20T10:00:00Z',
    ...extra,
    proposals,
  }
}

/** A proposal, made by the producer unless `from` says otherwise. */
export function proposal(
  producer: string,
  status: Proposal['status'],
  quantity: number,
  from: Proposal['from'] = 'producer',
): Proposal {
  counter += 1
  return { _id: `p${counter}`, producer, status, quantity, price: 2, from }
}
