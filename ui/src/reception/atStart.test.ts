import 'fake-indexeddb/auto'
import { clear, createStore } from 'idb-keyval'
import { beforeEach, describe, expect, it } from 'vitest'
import { sendWaitingAtStart } from './atStart'
import { type QueuedReception, enqueue, queueState } from './queue'

const reception = (key: string, email: string): QueuedReception => ({
  key,
  email,
  orderId: 'o1',
  deliveryId: `d-${key}`,
  body: { key, receivedBy: 'Léa Martin', receivedAt: '2026-11-20T08:55:00Z', deliveryLines: [] },
})

beforeEach(async () => {
  await clear(createStore('primeur-receptions', 'queue'))
  queueState.waiting = []
})

describe('the receptions waiting at the start of the app', () => {
  it('starts sending them whatever the first screen, and starts nothing when none waits', async () => {
    let started = 0
    const start = async () => {
      started++
    }
    expect(await sendWaitingAtStart('epicerie@lac.fr', start)).toBe(false)
    await enqueue(reception('k1', 'autre@magasin.fr'))
    expect(await sendWaitingAtStart('epicerie@lac.fr', start)).toBe(false) // another account's
    await enqueue(reception('k2', 'epicerie@lac.fr'))
    expect(await sendWaitingAtStart('epicerie@lac.fr', start)).toBe(true)
    expect(started).toBe(1)
  })
})
