// The accessibility gate (issue 19, WCAG 2.1 AA / RGAA 4.1): axe-core's
// WCAG 2.1 A and AA rules on every screen of both roles, of a new account
// and of an anonymous visitor, at desktop (1440×900) and phone (390×844)
// sizes. Any serious or critical violation fails, printed with its nodes;
// the others are printed too. The screens have content: a shop and a
// producer with two months of orders (tools/e2eseed), the first month
// invoiced, two deliveries of the second done, one of them claimed.
//
// The spec runs its own daemon (a11y.ts): it moves time with the daemon's
// jobs, which the shared daemon's other specs must not see.
import { type Browser, type BrowserContext, type Page, test } from '@playwright/test'
import { expect, needCell, readOnlyCell, registerThroughForm, uniqueAccount, watchProblems } from './fixtures'
import { BLOCKING, type Finding, OwnDaemon, axeScan, monthLabel, monthStart, registerAccount, report } from './a11y'
import { everyScreen } from './reads'

const daemon = new OwnDaemon()
const MONTH1 = monthStart(1)
const MONTH2 = monthStart(2)

interface Load {
  orders: { _id: string; deliveries: { _id: string; date: string; deliveryLines: { _id: string }[] }[] }[]
}

interface World {
  shop: { email: string; password: string; name: string; id: string }
  farm: { email: string; password: string; name: string; id: string }
  shopState: Awaited<ReturnType<BrowserContext['storageState']>>
  farmState: Awaited<ReturnType<BrowserContext['storageState']>>
}
let world: World

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000)
  await daemon.start()
  const shopContext = await browser.newContext({ baseURL: daemon.baseURL })
  const farmContext = await browser.newContext({ baseURL: daemon.baseURL })
  const shop = await registerAccount(daemon, shopContext, 'epicerie-a11y', true, {
    latitude: '45.9009',
    longitude: '6.1265',
    siret: '73282932000074',
    iban: 'FR7610107001011234567890129',
  })
  const farm = await registerAccount(daemon, farmContext, 'ferme-a11y', false, {
    latitude: '45.95',
    longitude: '6.2',
    siret: '41234567000019',
    iban: 'FR7630006000011234567890189',
    bic: 'AGRIFRPP882',
  })
  // Two months of orders; the first is invoiced, two deliveries of the second are done.
  daemon.seedOrders(shop.email, farm.email, MONTH1)
  daemon.seedOrders(shop.email, farm.email, MONTH2)
  expect(daemon.runJob('invoices', `${MONTH2}T06:00`)).toMatch(/factures émises : 1/)
  const load = (await everyScreen(farmContext.request)) as Load
  const order = load.orders.find((o) => o.deliveries.some((d) => d.date >= MONTH2))!
  const [first, second] = [...order.deliveries].sort((a, b) => a.date.localeCompare(b.date))
  daemon.runJob('deliveries', `${second.date}T12:30`)
  // The producer claims on the first: the shop has a claim to review, the producer a form on the second.
  const claim = await farmContext.request.put(`/api/deliveries/claim/${order._id}/${first._id}`, {
    data: {
      deliveryLines: first.deliveryLines.map((l, i) => ({
        _id: l._id,
        quantityClaimed: i === 0 ? -1 : 0,
        claimType: i === 0 ? 'quality' : '',
        claimComment: i === 0 ? 'Abîmés' : '',
      })),
    },
  })
  expect(claim.status(), await claim.text()).toBe(200)
  world = {
    shop,
    farm,
    shopState: await shopContext.storageState(),
    farmState: await farmContext.storageState(),
  }
  await shopContext.close()
  await farmContext.close()
})

test.afterAll(async () => {
  await daemon.stop()
})

/** One screen: a path, then what brings it to the state checked (a selection, an open form). */
interface Screen {
  name: string
  path: string | (() => string)
  ready: (page: Page) => Promise<unknown>
}

const heading = (name: string | RegExp) => (page: Page) =>
  expect(page.getByRole('heading', { name }).first()).toBeVisible()

/** The toasts of the load ("Utilisateur chargé") closed, or they would be part of every screen. */
async function settle(page: Page) {
  await page.mouse.move(0, 0)
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 })
}

const ANONYMOUS: Screen[] = [
  { name: 'accueil public (/landing)', path: '/landing', ready: heading('Primeur') },
  { name: 'connexion', path: '/landing/login', ready: (p) => expect(p.getByLabel('Mot de passe')).toBeVisible() },
  {
    name: 'connexion avec page demandée',
    path: '/dis/needs',
    ready: (p) => expect(p.getByText(/Vous devez vous connecter pour consulter la page/)).toBeVisible(),
  },
  { name: 'inscription', path: '/landing/register', ready: heading('Primeur') },
  { name: 'inscription producteur', path: '/landing/producer', ready: heading('Primeur') },
  { name: 'inscription magasin', path: '/landing/distributor', ready: heading('Primeur') },
  { name: 'mot de passe oublié', path: '/landing/forgot', ready: heading('Primeur') },
  { name: 'à propos', path: '/about', ready: heading('About') },
  { name: "déclaration d'accessibilité", path: '/accessibilite', ready: heading("Déclaration d'accessibilité") },
  { name: 'page introuvable', path: '/nulle-part', ready: heading('Page introuvable') },
]

const dialog = (name: string) => (page: Page) => expect(page.getByRole('dialog', { name })).toBeVisible()

/** The dashboard with one of its dialogs or forms open. */
const dashboardWith = (open: (page: Page) => Promise<unknown>, check: (page: Page) => Promise<unknown>) => {
  return async (page: Page) => {
    await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible()
    await settle(page)
    await open(page)
    await check(page)
  }
}

function shopScreens(): Screen[] {
  const { shop } = world
  return [
    { name: 'tableau de bord magasin', path: '/', ready: heading(shop.name) },
    {
      name: 'profil magasin',
      path: '/',
      ready: dashboardWith(
        (p) => p.getByRole('button', { name: shop.email }).click(),
        (p) => expect(p.getByRole('button', { name: /Enregistrer/ }).first()).toBeVisible(),
      ),
    },
    {
      name: 'activités magasin',
      path: '/',
      ready: dashboardWith((p) => p.getByRole('button', { name: 'Activités' }).click(), dialog('Activités')),
    },
    {
      name: 'planificateur, besoin engagé choisi',
      path: '/dis/needs',
      ready: async (p) => {
        await settle(p)
        await needCell(p, 'Tomate', monthLabel(MONTH1)).click()
        await expect(p.getByText(world.farm.name).first()).toBeVisible()
      },
    },
    {
      name: 'planificateur, ajout de besoins',
      path: '/dis/needs',
      ready: async (p) => {
        await settle(p)
        await p.getByRole('button', { name: 'Ajouter un besoin' }).click()
        await expect(p.getByRole('form', { name: 'Ajouter un besoin' })).toBeVisible()
      },
    },
    {
      name: 'réassort',
      path: '/dis/supply',
      ready: heading("Évolution des stocks et conseils d'approvisionnement"),
    },
    {
      name: 'réceptions, avoir à examiner',
      path: '/dis/deliveries',
      ready: async (p) => {
        await settle(p)
        await p.getByRole('tab', { name: 'Passées', exact: true }).click()
        await p
          .getByRole('table', { name: 'Livraisons' })
          .getByRole('row')
          .filter({ hasText: 'Livrée' })
          .first()
          .click()
        await expect(p.getByRole('region', { name: 'Bon de livraison' })).toBeVisible()
      },
    },
    { name: 'paiements magasin', path: '/dis/payments', ready: heading('À payer') },
    {
      name: "page d'un producteur (produits, offres)",
      path: () => `/dis/producers/${world.farm.id}`,
      ready: (p) => expect(p.getByText('Les produits que ce producteur vend, avec leurs labels.')).toBeVisible(),
    },
  ]
}

function farmScreens(): Screen[] {
  const { farm, shop } = world
  return [
    { name: 'tableau de bord producteur', path: '/', ready: heading('Planifier mes ventes') },
    {
      name: 'profil producteur',
      path: '/',
      ready: dashboardWith(
        (p) => p.getByRole('button', { name: farm.email }).click(),
        (p) => expect(p.getByRole('button', { name: /Enregistrer/ }).first()).toBeVisible(),
      ),
    },
    {
      name: 'activités producteur',
      path: '/',
      ready: dashboardWith((p) => p.getByRole('button', { name: 'Activités' }).click(), dialog('Activités')),
    },
    {
      name: "besoins d'un magasin, engagement choisi",
      path: () => `/prod/needs/${shop.id}`,
      ready: async (p) => {
        await settle(p)
        await readOnlyCell(p, 'Tomate', monthLabel(MONTH2)).click()
        await expect(p.getByText('Engagement', { exact: true }).first()).toBeVisible()
      },
    },
    {
      name: "livraisons producteur, demande d'avoir",
      path: '/prod/deliveries',
      ready: async (p) => {
        await settle(p)
        await p.getByRole('tab', { name: 'Passées', exact: true }).click()
        await p.getByRole('table', { name: 'Livraisons' }).getByRole('row').filter({ hasText: 'Livrée' }).last().click()
        await expect(p.getByRole('region', { name: 'Bon de livraison' })).toBeVisible()
      },
    },
    { name: 'paiements producteur', path: '/prod/payments', ready: heading('À encaisser') },
    {
      name: 'mes produits (offres, suggestions de types)',
      path: '/prod/products',
      ready: async (p) => {
        await expect(p.getByRole('heading', { name: 'Mes produits' })).toBeVisible()
        await expect(p.getByRole('heading', { name: 'Un type manque au catalogue ?' })).toBeVisible()
      },
    },
  ]
}

/** The dashboard's account menu, open ("Mon compte": the login email, the profile, "Quitter"). */
const accountMenu: Screen['ready'] = async (p) => {
  await settle(p)
  await p.getByRole('button', { name: 'Mon compte' }).click()
  await expect(p.getByRole('menuitem', { name: 'Quitter' })).toBeVisible()
}

/** The profile form, as "Mon profil et mes paramètres" and the first steps open it. */
const profileOpen: Screen['ready'] = (p) =>
  expect(p.getByRole('form', { name: 'Informations de profil' })).toBeVisible()

/** The add bar's dialog `button` opens, checked by `check`. */
const addBar =
  (button: string, check: (p: Page) => Promise<unknown>): Screen['ready'] =>
  async (p) => {
    await settle(p)
    await p.getByRole('button', { name: button }).click()
    await check(p)
  }

/**
 * A new shop registered through the API: its email not confirmed, no
 * profile, no need — the banner, the first steps, the empty screens, every
 * form of the add bar (the Excel import with a file chosen, its "×" shown).
 */
const NEWCOMER: Screen[] = [
  { name: 'nouveau compte, premiers pas', path: '/', ready: heading(/nouveau-a11y/) },
  { name: 'nouveau compte, menu du compte', path: '/', ready: accountMenu },
  { name: 'nouveau compte, profil', path: '/?profil=name', ready: profileOpen },
  {
    name: 'nouveau compte, activités vides',
    path: '/',
    ready: dashboardWith((p) => p.getByRole('button', { name: 'Activités' }).click(), dialog('Activités')),
  },
  {
    name: 'nouveau compte, planificateur vide',
    path: '/dis/needs',
    ready: (p) => expect(p.getByText('Macache')).toBeVisible(),
  },
  {
    name: 'nouveau compte, ajout groupé',
    path: '/dis/needs',
    ready: addBar('Ajout groupé', (p) => expect(p.getByRole('dialog')).toBeVisible()),
  },
  {
    name: 'nouveau compte, import standard',
    path: '/dis/needs',
    ready: addBar('Import standard', (p) => expect(p.getByRole('button', { name: 'Simuler' })).toBeVisible()),
  },
  {
    name: 'nouveau compte, import Excel, fichier choisi',
    path: '/dis/needs',
    ready: addBar('Import Excel', async (p) => {
      const form = p.getByRole('form', { name: "Import d'un fichier Excel" })
      await form.locator('input[type="file"]').setInputFiles({
        name: 'besoins.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('Produit;janv. 2030\nTomate;10\n'),
      })
      await expect(form.getByRole('button', { name: 'Importer' })).toBeEnabled()
    }),
  },
  { name: 'nouveau compte, réassort vide', path: '/dis/supply', ready: heading(/stocks et conseils/) },
  {
    name: 'nouveau compte, réceptions vides',
    path: '/dis/deliveries',
    ready: (p) => expect(p.getByRole('tab', { name: 'Passées', exact: true })).toBeVisible(),
  },
  { name: 'nouveau compte, paiements vides', path: '/dis/payments', ready: heading('À payer') },
]

/**
 * A new producer registered through the registration page: the first
 * steps, its profile, the menu, the postal-code search and its results
 * ("Voir ses besoins"), a shop's needs with the proposal form that asks for
 * delivery days first, its empty deliveries and payments.
 */
function newProducerScreens(): Screen[] {
  return [
    {
      name: 'nouveau producteur, premiers pas',
      path: '/',
      ready: (p) => expect(p.getByRole('region', { name: 'Premiers pas' })).toBeVisible(),
    },
    { name: 'nouveau producteur, menu du compte', path: '/', ready: accountMenu },
    { name: 'nouveau producteur, profil', path: '/?profil=name', ready: profileOpen },
    {
      name: 'nouveau producteur, recherche par code postal',
      path: '/',
      ready: async (p) => {
        await settle(p)
        const search = p.getByRole('combobox', { name: 'Recherche par code postal' })
        await search.fill('74000')
        await search.press('Enter')
        await expect(search).toHaveValue('Annecy (74000)')
        await expect(p.getByRole('link', { name: new RegExp(`^Voir ses besoins : ${world.shop.name}`) })).toBeVisible()
      },
    },
    {
      name: "nouveau producteur, besoins d'un magasin, formulaire de proposition",
      path: () => `/prod/needs/${world.shop.id}`,
      ready: async (p) => {
        await settle(p)
        await readOnlyCell(p, 'Tomate', monthLabel(MONTH2)).click()
        await expect(p.getByRole('form', { name: 'Proposer' })).toBeVisible()
      },
    },
    {
      name: 'nouveau producteur, livraisons vides',
      path: '/prod/deliveries',
      ready: (p) => expect(p.getByRole('tab', { name: 'Passées', exact: true })).toBeVisible(),
    },
    { name: 'nouveau producteur, paiements vides', path: '/prod/payments', ready: heading('À encaisser') },
  ]
}

const SIZES = [
  { label: 'bureau', viewport: { width: 1440, height: 900 } },
  { label: 'téléphone', viewport: { width: 390, height: 844 } },
]

/** Visits each screen, scans it, and fails on any serious or critical violation (all of them printed). */
async function gate(
  browser: Browser,
  size: (typeof SIZES)[number],
  who: string,
  screens: Screen[],
  account?: { email: string; state: World['shopState'] } | 'newcomer' | 'new-producer',
) {
  const context = await browser.newContext({
    baseURL: daemon.baseURL,
    viewport: size.viewport,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    storageState: typeof account === 'object' ? account.state : undefined,
    hasTouch: size.viewport.width < 600,
    isMobile: size.viewport.width < 600,
  })
  if (account === 'newcomer') await registerAccount(daemon, context, 'nouveau-a11y', true, {}, { confirm: false })
  else if (typeof account === 'object')
    await context.addInitScript((e) => window.localStorage.setItem('primeur.email', e), account.email)
  const page = await context.newPage()
  if (account === 'new-producer') {
    // Through the registration page, as a farmer signs up.
    await page.goto('/landing/producer')
    await registerThroughForm(page, uniqueAccount('producteur-a11y'), 'Producteur')
    await expect(page.getByRole('region', { name: 'Premiers pas' })).toBeVisible()
  }
  const problems: string[] = []
  watchProblems(page, problems)
  const findings: Finding[] = []
  const counts: string[] = []
  for (const screen of screens) {
    const name = `${screen.name} (${size.label})`
    await page.goto(typeof screen.path === 'string' ? screen.path : screen.path())
    await screen.ready(page)
    const found = await axeScan(page, name)
    findings.push(...found)
    const blocking = found.filter((f) => BLOCKING.has(f.impact))
    const nodes = (list: Finding[]) => list.reduce((n, f) => n + f.nodes.length, 0)
    const other = found.filter((f) => !BLOCKING.has(f.impact))
    counts.push(
      `${name}: ${blocking.length} serious/critical (${nodes(blocking)} nodes), ${other.length} other (${nodes(other)} nodes)`,
    )
  }
  await context.close()
  const blocking = findings.filter((f) => BLOCKING.has(f.impact))
  const summary = `axe-core, ${who}, ${size.label}:\n  ${counts.join('\n  ')}`
  console.log(summary)
  if (findings.length) console.log(report(findings))
  await test
    .info()
    .attach(`axe-${who}-${size.label}.txt`, { body: `${summary}\n\n${report(findings)}`, contentType: 'text/plain' })
  expect(problems, 'errors in the page').toEqual([])
  expect(blocking, `serious or critical violations:\n${report(blocking)}`).toEqual([])
}

for (const size of SIZES) {
  test.describe(`${size.label} ${size.viewport.width}×${size.viewport.height}`, () => {
    test('visiteur anonyme', async ({ browser }) => {
      test.setTimeout(120_000)
      await gate(browser, size, 'anonyme', ANONYMOUS)
    })
    test('nouveau magasin', async ({ browser }) => {
      test.setTimeout(180_000)
      await gate(browser, size, 'nouveau', NEWCOMER, 'newcomer')
    })
    test('nouveau producteur, inscrit par la page', async ({ browser }) => {
      test.setTimeout(180_000)
      await gate(browser, size, 'nouveau-producteur', newProducerScreens(), 'new-producer')
    })
    test('magasin', async ({ browser }) => {
      test.setTimeout(180_000)
      await gate(browser, size, 'magasin', shopScreens(), { email: world.shop.email, state: world.shopState })
    })
    test('producteur', async ({ browser }) => {
      test.setTimeout(180_000)
      await gate(browser, size, 'producteur', farmScreens(), { email: world.farm.email, state: world.farmState })
    })
  })
}
