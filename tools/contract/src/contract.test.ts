// The contract others build on: a client generated from Primeur's OpenAPI
// document (openapi-typescript, build/api.ts) and openapi-fetch, compiled in
// strict mode, calling a real daemon started from the built binary on a
// fresh SQLite data directory. Every answer is checked against its schema in
// the document (ajv, schemas.ts) before the test reads it.
//
// Run by `make test-contract` (npm test here), after `primeur openapi` wrote
// build/openapi.json and redocly linted it.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { after, before, test } from 'node:test'
import createClient, { type Middleware } from 'openapi-fetch'

import type { components, paths } from '../build/api.js'
import { type Daemon, start } from './daemon.js'
import { Contract, type Document } from './schemas.js'

type Schemas = components['schemas']

const bin = resolve(process.env.PRIMEUR_BIN ?? '../../bin/primeur')
const doc = JSON.parse(readFileSync('build/openapi.json', 'utf8')) as Document
const contract = new Contract(doc)
// The daemon's clock: a Friday in November 2026, so that December is the
// next month whatever the day the test runs.
const now = '2026-11-20T10:00:00+01:00'
// PRODUCT's French messages (core/planning, core/accounts, daemon/errors.go).
const msgBadWeight = 'Veuillez saisir un poids correct'
const msgUnknownProduct = 'Produit inconnu.'
const msgNeedExists = 'Un besoin existe déjà pour ce produit et ce mois.'
const msgBadCredentials = "L'adresse email ou le mot de passe saisis sont incorrects."
const msgNoToken = 'User did not provide any token'

let daemon: Daemon
before(async () => {
  daemon = await start(bin, now)
})
after(async () => {
  await daemon?.stop()
})

/** The answers checked against the document, for the tests to count. */
let checked = 0

/**
 * checkAnswers reads every answer before the client does and throws when
 * the document does not allow it: the call then fails with the reasons.
 */
const checkAnswers: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const problems = contract.check({
      method: request.method,
      path: schemaPath,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: await response.clone().text(),
    })
    if (problems.length > 0) throw new assert.AssertionError({ message: problems.join('\n') })
    checked++
    return undefined
  },
}

/** A client of its own session: it keeps the cookie the daemon sets. */
function newClient() {
  let cookie = ''
  const session: Middleware = {
    onRequest({ request }) {
      if (cookie) request.headers.set('Cookie', cookie)
      return request
    },
    onResponse({ response }) {
      for (const c of response.headers.getSetCookie()) {
        const pair = c.split(';')[0] ?? ''
        cookie = pair.endsWith('=') ? '' : pair // a cleared cookie ends the session
      }
      return undefined
    },
  }
  const client = createClient<paths>({ baseUrl: daemon.url })
  client.use(session, checkAnswers)
  return client
}

const shop = { email: 'epicerie@example.fr', password: 'motdepasse1', name: 'Épicerie du Lac' }

test('the daemon serves the document that was linted and generated from', async () => {
  const res = await fetch(`${daemon.url}/openapi.json`)
  assert.equal(res.status, 200)
  assert.deepEqual(await res.json(), doc)
  assert.ok(contract.compileAll() > 50, 'every JSON answer schema compiles')
})

test('register, log in, load the user, create a need, have needs refused', async () => {
  const before = checked
  const visitor = newClient()

  const registered = await visitor.POST('/auth/register', { body: { ...shop, distributor: true } })
  assert.equal(registered.response.status, 201)
  assert.ok(registered.data)
  const user: Schemas['AccountsProfile'] = registered.data.user
  assert.equal(user.type, 'distributor')
  assert.equal(user.email, shop.email)

  const wrong = await newClient().POST('/auth/login', { body: { email: shop.email, password: 'mauvais123' } })
  assert.equal(wrong.response.status, 401)
  assert.equal(wrong.error?.detail, msgBadCredentials)

  const anonymous = await newClient().GET('/api/user')
  assert.equal(anonymous.response.status, 401)
  assert.equal(anonymous.error?.detail, msgNoToken)

  const client = newClient()
  const login = await client.POST('/auth/login', { body: { email: shop.email.toUpperCase(), password: shop.password } })
  assert.equal(login.response.status, 200)
  assert.equal(login.data?.user._id, user._id)

  const load = await client.GET('/api/user')
  assert.equal(load.response.status, 200)
  assert.ok(load.data)
  // Required fields and lists that are never null type as such: these
  // lines compile only so. Each screen reads its own part (issue 42).
  const needCount: number = load.data.counts.needs
  assert.equal(needCount, 0)
  assert.equal(load.data.user.name, shop.name)
  const catalogue = await client.GET('/api/catalogue')
  assert.ok(catalogue.data)
  const productIDs: string[] = catalogue.data.products.map((p) => p._id)
  assert.ok(productIDs.includes('tomate'))
  const ownNeeds = await client.GET('/api/needs')
  const needs: Schemas['PlanningView'][] = ownNeeds.data ?? []
  assert.deepEqual(needs, [])
  const orders = await client.GET('/api/orders')
  assert.deepEqual(orders.data, [])

  // The shop puts itself on the map (Thônes); its card gives it its email.
  const placed = await client.PUT('/api/user', { body: { latitude: '45.8814', longitude: '6.3256' } })
  assert.equal(placed.data?.user.latitude, '45.8814')
  const card = await client.GET('/api/shops/{id}', { params: { path: { id: user._id } } })
  assert.equal(card.data?.name, shop.name)
  assert.equal(card.data?.email, shop.email)

  const created = await client.POST('/api/needs', { body: { product: 'tomate', date: '2026-12', quantity: 120.5 } })
  assert.equal(created.response.status, 201)
  assert.ok(created.data)
  const need: Schemas['PlanningView'] = created.data
  assert.equal(need.product, 'tomate')
  assert.equal(need.date, '2026-12-01')
  assert.equal(need.quantity, 120.5)
  assert.deepEqual(need.proposals, [])

  const refusals = [
    { name: 'three decimals', body: { product: 'tomate', date: '2027-01', quantity: 1.234 }, status: 422, detail: msgBadWeight },
    { name: 'unknown product', body: { product: 'durian', date: '2027-01', quantity: 3 }, status: 422, detail: msgUnknownProduct },
    { name: 'twice the same month', body: { product: 'tomate', date: '2026-12', quantity: 3 }, status: 409, detail: msgNeedExists },
  ]
  for (const r of refusals) {
    const refused = await client.POST('/api/needs', { body: r.body })
    assert.equal(refused.response.status, r.status, r.name)
    const problem: Schemas['ErrorModel'] | undefined = refused.error
    assert.equal(problem?.detail, r.detail, r.name)
  }

  const listed = await client.GET('/api/needs', { params: { query: { from: '2026-12' } } })
  assert.deepEqual(
    listed.data?.map((n) => [n.product, n.quantity]),
    [['tomate', 120.5]],
  )

  // The answer the first lint found wrong: no contribution is null.
  const rewards = await client.GET('/api/rewards')
  assert.equal(rewards.response.status, 200)
  assert.equal(rewards.data?.contribution, null)
  const pledged = await client.PUT('/api/rewards/contribution', { body: { amount: 25 } })
  assert.equal(pledged.data?.contribution?.amount, 25)

  const out = await client.GET('/auth/logout')
  assert.equal(out.response.status, 204)
  const gone = await client.GET('/api/user')
  assert.equal(gone.response.status, 401)

  // Registration, the wrong login, the anonymous load, the login, the load,
  // the catalogue, the needs and the orders, the profile, the card, the
  // need, three refusals, the list, two rewards answers, the logout and the
  // load after it: each answer was checked.
  assert.equal(checked - before, 19)
})

test('a producer sees the shop needs and the routes outside the API answer as documented', async () => {
  const before = checked
  const farm = newClient()
  const registered = await farm.POST('/auth/register', {
    body: { email: 'ferme@example.fr', password: 'motdepasse1', name: 'Ferme des Aravis' },
  })
  assert.equal(registered.data?.user.type, 'producer')

  // The farm trades with no shop yet (its user load names none): it finds
  // the shop on the map of Haute-Savoie, with its score.
  const map = await farm.GET('/api/map', { params: { query: { south: 45.68, west: 5.8, north: 46.41, east: 7.05, zoom: 1 } } })
  const pin = map.data?.shops.find((d) => d.name === shop.name)
  const shopID = pin?._id
  assert.ok(shopID, 'the shop is on the map')
  assert.equal(pin?.score, 0)
  assert.equal(pin?.email, '')
  assert.deepEqual(map.data?.clusters, [])
  const needs = await farm.GET('/api/needs', { params: { query: { distributor: shopID } } })
  assert.equal(needs.response.status, 200)
  assert.ok(needs.data?.some((n) => n.product === 'tomate'))

  // The progression statistics of a farm without deliveries: the 25 months, no product.
  const progression = await farm.GET('/api/stats/progression')
  assert.equal(progression.data?.months.length, 25)
  assert.deepEqual(progression.data?.products, [])

  // The place reference: a village by postal code and name, with its position.
  const places = await farm.GET('/api/places', { params: { query: { q: '74230 serraval', limit: 3 } } })
  const village = places.data?.places[0]
  assert.equal(village?.name, 'Serraval')
  assert.equal(village?.postalCode, '74230')
  const position: 'own' | 'postcode' | 'area' | undefined = village?.position
  assert.ok(position)
  assert.ok((village?.latitude ?? 0) > 45 && (village?.longitude ?? 0) > 6)

  // The site's public settings: the daemon of the contract test sets no
  // accessibility contact and keeps the default no-reply sender.
  const site = await farm.GET('/public/site')
  const source: 'setting' | 'mail-sender' | 'none' | undefined = site.data?.accessibilityContactSource
  assert.equal(source, 'none')
  assert.equal(site.data?.accessibilityContact, '')

  const health = await farm.GET('/healthz')
  const status: 'ok' | 'degraded' | 'unavailable' | undefined = health.data?.status
  assert.equal(status, 'ok')

  const csv = await farm.GET('/public/other/products.csv', { parseAs: 'text' })
  assert.equal(csv.response.status, 200)
  assert.match(csv.data ?? '', /^\uFEFF?produit;unite\r\n/)

  const note = await farm.GET('/print/invoice/{orderId}', { params: { path: { orderId: 'inconnue' } } })
  assert.equal(note.response.status, 404)

  assert.equal(checked - before, 9)
})
