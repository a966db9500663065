// Electronic invoicing through an approved platform (PRODUCT §16, issue 38)
// in real browsers against the real daemon: the producer connects its PA
// — the local PA of core/pa/patest, run as a process (tools/localpa) — in
// its profile's "Facturation électronique", tests the connection (a wrong
// secret said in French, then the right one), and saves it; the pa job
// deposits its month's invoice; the PA posts a status through the
// daemon's webhook; both the producer ("À encaisser") and the shop ("À
// payer") see each status; once the producer records the payment in
// full, the next run posts Encaissée and both see it.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { BrowserContext } from '@playwright/test'
import { confirmEmail, dataDir, expect, seed, test, uniqueAccount } from './fixtures'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..')
const bin = resolve(process.env.PRIMEUR_BIN ?? join(root, 'bin', 'primeur'))
const CLIENT = 'ferme-e2e'
const SECRET = 'secret-de-la-ferme-e2e'
const FARM_SIRET = '41234567000019'

/** The first day of the month `offset` months from now in Paris, "2026-12-01". */
function monthStart(offset: number): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m - 1 + offset, 1)).toISOString().slice(0, 10)
}

function runJob(name: string, at: string): string {
  return execFileSync(
    bin,
    ['jobs', 'run', name, '--at', at, '--force', '--data-dir', dataDir(), '--log-level', 'warn'],
    {
      encoding: 'utf8',
    },
  )
}

interface LocalPA {
  flowUrl: string
  tokenUrl: string
  controlUrl: string
  child: ChildProcessWithoutNullStreams
}

/** Builds and starts tools/localpa; its first line says where it listens. */
async function startLocalPA(): Promise<LocalPA> {
  const exe = join(dataDir(), 'localpa')
  execFileSync('go', ['build', '-o', exe, './tools/localpa'], { cwd: root, stdio: 'inherit' })
  const child = spawn(exe, ['--client-id', CLIENT, '--client-secret', SECRET])
  child.stderr.on('data', (b: Buffer) => process.stderr.write(b))
  const line = await new Promise<string>((ok, fail) => {
    const lines = createInterface({ input: child.stdout })
    lines.once('line', ok)
    child.once('exit', (code) => fail(new Error(`localpa exited with ${code}`)))
  })
  return { ...(JSON.parse(line) as Omit<LocalPA, 'child'>), child }
}

/** Registers through the API with a complete profile, confirmed, and signs the context in. */
async function register(
  context: BrowserContext,
  prefix: string,
  distributor: boolean,
  profile: Record<string, string>,
) {
  const account = uniqueAccount(prefix)
  expect((await context.request.post('/auth/register', { data: { ...account, distributor } })).status()).toBe(201)
  await confirmEmail(context.request, account.email)
  const bank = 'iban' in profile ? { currentPassword: account.password } : {}
  expect((await context.request.put('/api/user', { data: { ...profile, ...bank } })).status()).toBe(200)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  return account
}

test.use({ viewport: { width: 1400, height: 1000 } })

test('the producer connects its PA, its invoice is deposited, and both sides see its statuses up to Encaissée', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const localPA = await startLocalPA()
  try {
    const month = monthStart(1)
    const billing = monthStart(2)
    const shopContext = await browser.newContext({ baseURL })
    const farmContext = await browser.newContext({ baseURL })
    const shop = await register(shopContext, 'biocoop', true, { siret: '73282932000074' })
    const farm = await register(farmContext, 'ferme-pa', false, {
      siret: FARM_SIRET,
      iban: 'FR7630006000011234567890189',
      bic: 'AGRIFRPP882',
    })
    seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', month])
    expect(runJob('invoices', `${billing}T06:00`)).toMatch(/factures émises : [1-9]/)

    // The producer's profile: "Facturation électronique".
    const farmPage = await farmContext.newPage()
    await farmPage.goto('/?profil=name')
    const section = farmPage.getByRole('form', { name: 'Facturation électronique' })
    await expect(section.getByRole('status', { name: 'État de la connexion' })).toHaveText(
      /Aucune plateforme agréée n'est connectée/,
    )
    await section.getByLabel('Adresse du service de flux').fill(localPA.flowUrl)
    await section.getByLabel('Adresse du jeton (OAuth2)').fill(localPA.tokenUrl)
    await section.getByLabel('Identifiant du client').fill(CLIENT)
    await section.getByLabel('Secret du client').fill('pas-le-bon-secret')
    await section.getByRole('button', { name: 'Tester la connexion' }).click()
    await expect(section.getByRole('status', { name: 'Résultat du test' })).toHaveText(
      "L'obtention du jeton d'accès auprès de la plateforme agréée a échoué : l'identifiant ou le secret du client est refusé.",
    )
    await section.getByLabel('Secret du client').fill(SECRET)
    await section.getByRole('button', { name: 'Tester la connexion' }).click()
    await expect(section.getByRole('status', { name: 'Résultat du test' })).toHaveText(
      'La connexion à la plateforme agréée fonctionne : jeton obtenu et service de flux joignable.',
    )
    // A start date in the past (the month's invoices are issued later, from the connection on).
    await section.getByLabel('Déposer aussi les factures émises depuis le (facultatif)').fill(monthStart(0))
    await section.getByRole('button', { name: 'Enregistrer la connexion' }).click()
    await expect(section.getByRole('status', { name: 'État de la connexion' })).toHaveText(/^Connectée depuis le /)
    // The secret is never shown back.
    await expect(section.getByLabel('Secret du client')).toHaveValue('')
    expect(await farmPage.content()).not.toContain(SECRET)

    // The PA is given the webhook the profile shows, as its own screens would.
    const hook = (await section.getByLabel('Adresse de rappel').textContent())!.trim()
    const token = (await section.getByLabel('Jeton de rappel').textContent())!
      .replace('Authorization: Bearer ', '')
      .trim()
    expect(hook).toBe(`${baseURL}/pa/webhook/${hook.split('/').pop()}`)
    const set = await fetch(`${localPA.controlUrl}/webhook`, {
      method: 'POST',
      body: JSON.stringify({ url: hook, token }),
    })
    expect(set.status).toBe(204)

    // The pa job deposits the invoice: both sides see it "Déposée".
    runJob('pa', `${billing}T07:00`)
    const deposits = (await (await fetch(`${localPA.controlUrl}/deposits`)).json()) as Record<string, number>
    expect(Object.values(deposits)).toEqual([1])
    await farmPage.goto('/prod/payments')
    const farmCard = farmPage.getByRole('region', { name: shop.name })
    const farmRow = farmCard.getByRole('row').nth(1)
    await expect(farmRow.getByLabel('Plateforme : Déposée')).toBeVisible()
    const shopPage = await shopContext.newPage()
    await shopPage.goto('/dis/payments')
    const shopRow = shopPage.getByRole('region', { name: farm.name }).getByRole('row').nth(1)
    await expect(shopRow.getByLabel('Plateforme : Déposée')).toBeVisible()

    // The PA posts the buyer's approval through the webhook.
    const number = (await farmRow.getByRole('link', { name: /^Facture FA-/ }).textContent())!
      .replace('Facture ', '')
      .trim()
    const status = await fetch(`${localPA.controlUrl}/status`, {
      method: 'POST',
      body: JSON.stringify({ seller: FARM_SIRET.slice(0, 9), number, status: '205' }),
    })
    expect(status.status).toBe(204)
    await shopPage.reload()
    await expect(shopRow.getByLabel('Plateforme : Approuvée')).toBeVisible()
    await farmPage.reload()
    await expect(farmRow.getByLabel('Plateforme : Approuvée')).toBeVisible()

    // The producer records the payment in full; the next run posts Encaissée.
    await farmCard.getByRole('button', { name: 'Enregistrer un paiement reçu' }).click()
    const form = farmCard.getByRole('form', { name: 'Paiement' })
    await form.getByRole('button', { name: 'Enregistrer le paiement' }).click()
    await expect(farmRow).toContainText('Payée')
    runJob('pa', `${billing}T08:00`)
    await farmPage.reload()
    await expect(farmRow.getByLabel('Plateforme : Encaissée')).toBeVisible()
    await shopPage.reload()
    await expect(shopRow.getByLabel('Plateforme : Encaissée')).toBeVisible()

    const invalid = (await (await fetch(`${localPA.controlUrl}/invalid`)).json()) as string[] | null
    expect(invalid ?? []).toEqual([])
    await shopContext.close()
    await farmContext.close()
  } finally {
    localPA.child.stdin.end()
    localPA.child.kill('SIGTERM')
  }
})
