import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState } from '../store/state'
import { renderWithProviders } from '../test/render'
import { EInvoicingForm } from './EInvoicingForm'
import { PAStatus, cancelledText, replacedText } from './PAStatus'

beforeEach(() => resetState('ferme@exemple.fr'))

const connected = {
  connected: true,
  flowUrl: 'https://api.pa.fr/flow-service',
  tokenUrl: 'https://auth.pa.fr/token',
  clientId: 'ferme',
  connectedAt: '2026-11-20T08:00:00Z',
  depositFrom: '2026-11-01',
  secretReadable: true,
  webhookPath: '/pa/webhook/p1',
  webhookToken: 'jeton',
  deposited: 3,
  failing: 0,
  outside: 0,
}

describe('EInvoicingForm', () => {
  it('tests the connection with what is typed, says the outcome, and never shows the stored secret', async () => {
    const calls: { url: string; method: string; body: unknown }[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input)
      calls.push({ url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : null })
      if (url === '/api/user/pa/test')
        return new Response(
          JSON.stringify({
            ok: false,
            message:
              "L'obtention du jeton d'accès auprès de la plateforme agréée a échoué : l'identifiant ou le secret du client est refusé.",
          }),
        )
      return new Response(JSON.stringify(connected))
    })
    const user = userEvent.setup()
    renderWithProviders(<EInvoicingForm owner="p1" />)
    expect(await screen.findByText(/^Connectée depuis le 20 novembre 2026/)).toHaveTextContent(
      'sont déposées les factures émises à partir du 1 novembre 2026. 3 documents déposés.',
    )
    await waitFor(() => expect(screen.getByLabelText(/^Identifiant du client/)).toHaveValue('ferme'))
    const secret = screen.getByLabelText(/^Secret du client/)
    expect(secret).toHaveValue('')
    expect(
      screen.getByText('Laissez vide pour garder le secret enregistré (il n’est jamais réaffiché).'),
    ).toBeInTheDocument()
    expect(screen.getByLabelText('Adresse de rappel')).toHaveTextContent('/pa/webhook/p1')

    await user.type(secret, 'nouveau')
    await user.click(screen.getByRole('button', { name: 'Tester la connexion' }))
    expect(await screen.findByRole('status', { name: 'Résultat du test' })).toHaveTextContent(
      "l'identifiant ou le secret du client est refusé.",
    )
    const test = calls.find((c) => c.url === '/api/user/pa/test')!
    expect(test.method).toBe('POST')
    expect(test.body).toEqual({
      flowUrl: 'https://api.pa.fr/flow-service',
      tokenUrl: 'https://auth.pa.fr/token',
      clientId: 'ferme',
      clientSecret: 'nouveau',
    })
  })
})

describe('PAStatus', () => {
  it('shows the status, the motive and, to the producer, what to do after a refusal', () => {
    const pa = {
      status: '210',
      label: 'Refusée',
      reason: 'Marchandise non conforme',
      history: [
        { status: '200', label: 'Déposée', at: '2026-12-01T07:00:00Z' },
        { status: '210', label: 'Refusée', at: '2026-12-02T07:00:00Z' },
      ],
    }
    const { unmount } = renderWithProviders(<PAStatus pa={pa} producer />)
    expect(screen.getByLabelText('Plateforme : Refusée')).toHaveAttribute(
      'title',
      '01/12/2026 : Déposée\n02/12/2026 : Refusée',
    )
    expect(screen.getByText('Motif : Marchandise non conforme')).toBeInTheDocument()
    expect(screen.getByText('Historique sur la plateforme')).toBeInTheDocument()
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '01/12/2026 : Déposée',
      '02/12/2026 : Refusée',
    ])
    expect(screen.getByText(/^Refusée par le magasin : le refus annule la facture/)).toBeInTheDocument()
    unmount()
    renderWithProviders(<PAStatus pa={pa} producer={false} />)
    expect(screen.queryByText(/^Refusée par le magasin/)).not.toBeInTheDocument()
  })
})

describe('PAStatus of a rejected invoice', () => {
  const rejected = {
    status: '213',
    label: 'Rejetée',
    reason: "SIREN de l'acheteur inconnu",
    history: [{ status: '213', label: 'Rejetée', at: '2026-12-01T07:00:00Z' }],
  }

  it('offers the producer to re-issue it corrected, then reads the payments afresh', async () => {
    const calls: { url: string; method: string }[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input)
      calls.push({ url, method: init?.method ?? 'GET' })
      const body = url.endsWith('/reissue')
        ? { invoice: { id: 'f2', number: 'FA-2026-000002' }, credit: { id: 'a1', number: 'AV-2026-000001' } }
        : { accounts: [] }
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
    })
    renderWithProviders(<PAStatus pa={rejected} producer reissue="f1" />)
    expect(screen.getByText(/^Réputée non émise : corrigez la cause du rejet/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Émettre la facture corrigée' }))
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.url}`)).toContain('GET /api/payments'))
    expect(calls[0]).toEqual({ url: '/api/user/pa/invoices/f1/reissue', method: 'POST' })
  })

  it('once replaced, says by which invoice to both sides, and offers nothing more', () => {
    const replaced = { ...rejected, replacedBy: 'FA-2026-000002' }
    const { unmount } = renderWithProviders(<PAStatus pa={replaced} producer reissue="f1" />)
    expect(screen.getByText(replacedText('FA-2026-000002'))).toBeInTheDocument()
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
    unmount()
    renderWithProviders(<PAStatus pa={replaced} producer={false} />)
    expect(screen.getByText(replacedText('FA-2026-000002'))).toBeInTheDocument()
  })

  it('offers no re-issue to the shop', () => {
    renderWithProviders(<PAStatus pa={rejected} producer={false} reissue="f1" />)
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
  })
})

describe('PAStatus of a refused invoice', () => {
  const refused = {
    status: '210',
    label: 'Refusée',
    reason: 'Marchandise non conforme',
    history: [{ status: '210', label: 'Refusée', at: '2026-12-02T07:00:00Z' }],
  }

  it('offers the producer the credit note cancelling it, then reads the payments afresh', async () => {
    const calls: string[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input)
      calls.push(`${init?.method ?? 'GET'} ${url}`)
      const body = url.endsWith('/cancel') ? { credit: { id: 'a1', number: 'AV-2026-000001' } } : { accounts: [] }
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
    })
    renderWithProviders(<PAStatus pa={refused} producer reissue="f1" />)
    expect(screen.queryByRole('button', { name: 'Émettre la facture corrigée' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Annuler la facture par un avoir' }))
    await waitFor(() => expect(calls).toContain('GET /api/payments'))
    expect(calls[0]).toBe('POST /api/user/pa/invoices/f1/cancel')
  })

  it('once cancelled, names the credit note to both sides, and offers nothing more', () => {
    const cancelled = { ...refused, cancelledBy: 'AV-2026-000001' }
    const { unmount } = renderWithProviders(<PAStatus pa={cancelled} producer reissue="f1" />)
    expect(screen.getByText(cancelledText('AV-2026-000001'))).toBeInTheDocument()
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
    unmount()
    renderWithProviders(<PAStatus pa={cancelled} producer={false} />)
    expect(screen.getByText(cancelledText('AV-2026-000001'))).toBeInTheDocument()
  })
})
