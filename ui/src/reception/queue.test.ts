import 'fake-indexeddb/auto'
import { clear, createStore } from 'idb-keyval'
import { beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../api'
import { type QueuedReception, discard, drain, enqueue, outcomeOf, queueState, waitingLabel, waitingOf } from './queue'

const reception = (key: string, email = 'epicerie@lac.fr', at = '2026-11-20T08:55:00Z'): QueuedReception => ({
  key,
  email,
  orderId: 'o1',
  deliveryId: `d-${key}`,
  body: { key, receivedBy: 'Léa Martin', receivedAt: at, deliveryLines: [{ _id: 'l1', quantityReceived: 7.5 }] },
})

beforeEach(async () => {
  await clear(createStore('primeur-receptions', 'queue'))
  queueState.waiting = []
})

describe('the reception queue', () => {
  it('keeps receptions in IndexedDB, per account, oldest first, and says how many wait', async () => {
    await enqueue(reception('k2', 'epicerie@lac.fr', '2026-11-20T09:10:00Z'))
    await enqueue(reception('k1', 'epicerie@lac.fr', '2026-11-20T08:55:00Z'))
    await enqueue(reception('k3', 'autre@magasin.fr'))
    expect((await waitingOf('epicerie@lac.fr')).map((r) => r.key)).toEqual(['k1', 'k2'])
    expect(queueState.waiting.map((r) => r.key)).toEqual(['k3']) // the last account written
    expect(waitingLabel(await waitingOf('epicerie@lac.fr'))).toBe("2 réceptions en attente d'envoi")
    expect(waitingLabel([reception('x')])).toBe("1 réception en attente d'envoi")
    expect(waitingLabel([])).toBeNull()
  })

  it('sends nothing while the network is gone, then everything once it is back', async () => {
    await enqueue(reception('k1'))
    await enqueue(reception('k2', 'epicerie@lac.fr', '2026-11-20T09:00:00Z'))
    await enqueue(reception('k3', 'epicerie@lac.fr', '2026-11-20T09:30:00Z'))
    const offline = async () => {
      throw new ApiError(0, '', 'Le serveur est injoignable')
    }
    expect(await drain('epicerie@lac.fr', offline)).toBe(0)
    expect(waitingLabel(queueState.waiting)).toBe("3 réceptions en attente d'envoi")

    const sent: string[] = []
    expect(await drain('epicerie@lac.fr', async (r) => sent.push(r.key))).toBe(3)
    expect(sent).toEqual(['k1', 'k2', 'k3'])
    expect(queueState.waiting).toEqual([])
    expect(await waitingOf('epicerie@lac.fr')).toEqual([])
  })

  it('sends each reception once when two drains run together', async () => {
    await enqueue(reception('k1'))
    await enqueue(reception('k2', 'epicerie@lac.fr', '2026-11-20T09:00:00Z'))
    const sent: string[] = []
    const send = async (r: QueuedReception) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      sent.push(r.key)
    }
    const [a, b] = await Promise.all([drain('epicerie@lac.fr', send), drain('epicerie@lac.fr', send)])
    expect(a).toBe(2)
    expect(b).toBe(2) // the second joined the first
    expect(sent).toEqual(['k1', 'k2'])
  })

  it('makes one more pass for a drain asked while one was failing: the network back during an offline pass', async () => {
    await enqueue(reception('k1'))
    const sent: string[] = []
    let online = false
    let second: Promise<number> | null = null
    const send = async (r: QueuedReception) => {
      if (!online) {
        // The network returns while this pass fails: the 'online' event drains again.
        online = true
        second = drain('epicerie@lac.fr', send)
        throw new ApiError(0, '', 'Le serveur est injoignable')
      }
      sent.push(r.key)
    }
    expect(await drain('epicerie@lac.fr', send)).toBe(1)
    expect(await second).toBe(1) // joined, and served by the extra pass
    expect(sent).toEqual(['k1'])
    expect(await waitingOf('epicerie@lac.fr')).toEqual([])
  })

  it('keeps a refused reception with its refusal, never sends it again, and lets the shop discard it', async () => {
    await enqueue(reception('k1'))
    await enqueue(reception('k2', 'epicerie@lac.fr', '2026-11-20T09:00:00Z'))
    const locked = "Le bon de livraison n'est plus modifiable après 12h le jour de la livraison."
    const sent: string[] = []
    await drain('epicerie@lac.fr', async (r) => {
      if (r.key === 'k1') throw new ApiError(409, 'Conflict', locked)
      sent.push(r.key)
    })
    expect(sent).toEqual(['k2'])
    expect(queueState.waiting).toHaveLength(1)
    expect(queueState.waiting[0].refused).toBe(locked)
    expect(waitingLabel(queueState.waiting)).toBeNull()

    await drain('epicerie@lac.fr', async (r) => sent.push(r.key))
    expect(sent).toEqual(['k2'])
    await discard('epicerie@lac.fr', 'k1')
    expect(queueState.waiting).toEqual([])
  })

  it('tries later on a lost session, a busy daemon or no answer, and gives up only on a refusal', () => {
    expect(outcomeOf(new ApiError(0, '', ''))).toBe('later')
    expect(outcomeOf(new ApiError(401, 'Unauthorized', 'User did not provide any token'))).toBe('later')
    expect(outcomeOf(new ApiError(503, 'Service Unavailable', ''))).toBe('later')
    expect(outcomeOf(new TypeError('Failed to fetch'))).toBe('later')
    expect(outcomeOf(new ApiError(422, 'Unprocessable Entity', 'Ce fichier n’est pas une image'))).toEqual({
      refused: 'Ce fichier n’est pas une image',
    })
  })
})
