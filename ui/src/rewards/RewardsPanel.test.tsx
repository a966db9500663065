import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { dashboard, resetDashboard } from '../store/dashboard'
import { resetState, state } from '../store/state'
import { distributor } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import type { RewardsStanding } from '../types'
import { CONTRIBUTION_MESSAGES } from '../validation/contribution'
import { RewardsPanel, missingText, ordinal } from './RewardsPanel'
import { progressToNext } from './levels'

const standing: RewardsStanding = {
  level: 'militant',
  purchases: {
    lastMonth: { month: '2026-10-01', value: 750 },
    currentMonth: { month: '2026-11-01', value: 120.5 },
    monthly: 750,
  },
  monthsOfCommitment: 4,
  rank: 2,
  shops: 7,
  score: 1150,
  contribution: null,
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

function withStanding(s: RewardsStanding) {
  resetState(distributor.email)
  state.user = distributor
  resetDashboard(distributor._id)
  dashboard.rewards = s
}

const text = (el: HTMLElement) => el.textContent?.replace(/\s/g, ' ')

beforeEach(() => withStanding(standing))

describe('RewardsPanel', () => {
  it('shows the level, the progress from real figures, and the score card', () => {
    renderWithProviders(<RewardsPanel />)
    const support = screen.getByRole('region', { name: 'Soutien financier' })
    expect(within(support).getByTestId('rewards-level')).toHaveTextContent('Militant')
    // 750 € and no pledge toward Ambassadeur certifié: (750/1000 + 0/10) / 2 = 37 %.
    expect(within(support).getByText('37 %')).toBeInTheDocument()
    expect(within(support).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '37')
    expect(text(within(support).getByText(/Pour devenir/))).toBe(
      "Pour devenir Ambassadeur certifié, il vous manque 250,00 € d'achats mensuels et une contribution mensuelle d'au moins 10,00 €.",
    )
    expect(within(support).getByRole('button', { name: 'Devenir ambassadeur' })).toBeInTheDocument()

    const score = screen.getByRole('region', { name: 'Score équitable' })
    expect(within(score).getByTestId('rewards-score')).toHaveTextContent('1150 pts')
    expect(within(score).getByTestId('rewards-rank')).toHaveTextContent('2e sur 7 magasins')
    expect(text(within(score).getByTestId('rewards-purchases'))).toBe('750,00 €')
    expect(text(within(score).getByText(/octobre 2026/))).toBe(
      'octobre 2026 : 750,00 € · novembre 2026 (en cours) : 120,50 €',
    )
    expect(within(score).getByTestId('rewards-months')).toHaveTextContent('4')
  })

  it('opens the modal on the explanation, switches to the levels table and back', async () => {
    const user = userEvent.setup()
    renderWithProviders(<RewardsPanel />)
    await user.click(screen.getByRole('button', { name: 'Devenir ambassadeur' }))
    const dialog = await screen.findByRole('dialog', { name: 'Programme ambassadeur' })
    expect(
      within(dialog).getByText(/Score = 1 point par euro d'achats mensuels \+ 100 points par mois d'engagement\./),
    ).toBeInTheDocument()
    expect(within(dialog).getByText(/le prélèvement sera mis en place prochainement/)).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Voir les 4 niveaux de participation' }))
    const table = within(dialog).getByRole('table', { name: 'Niveaux de participation' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual([
      'Sympathisant',
      'Militant (votre niveau)',
      'Ambassadeur certifié',
      'Super Ambassadeur certifié',
    ])
    expect(rows[1]).toHaveAttribute('aria-current', 'true')
    expect(within(rows[3]).getByText('100 € par mois ou plus')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: '← Retour' }))
    expect(within(dialog).getByTestId('rewards-explanation')).toBeInTheDocument()
  })

  it('validates the pledge, sends it and shows the new standing', async () => {
    const pledged: RewardsStanding = {
      ...standing,
      level: 'militant',
      contribution: { amount: 25.5, since: '2026-11-20T09:00:00Z', updatedAt: '2026-11-20T09:00:00Z' },
    }
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(200, pledged))
    const user = userEvent.setup()
    renderWithProviders(<RewardsPanel />)
    await user.click(screen.getByRole('button', { name: 'Devenir ambassadeur' }))
    const dialog = await screen.findByRole('dialog', { name: 'Programme ambassadeur' })
    const amount = within(dialog).getByLabelText('Contribution mensuelle (€)')
    const save = within(dialog).getByRole('button', { name: 'Enregistrer mon engagement' })
    await user.type(amount, '9')
    await user.tab()
    expect(within(dialog).getByText(CONTRIBUTION_MESSAGES.min)).toBeInTheDocument()
    expect(save).toBeDisabled()
    await user.clear(amount)
    await user.type(amount, '25,50')
    expect(save).toBeEnabled()
    await user.click(save)
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith(
        '/api/rewards/contribution',
        expect.objectContaining({ method: 'PUT', body: JSON.stringify({ amount: 25.5 }) }),
      ),
    )
    expect(
      await screen.findByText(/Engagement enregistré : le prélèvement sera mis en place prochainement/),
    ).toBeInTheDocument()
    expect(text(within(dialog).getByText(/Votre engagement actuel/))).toBe(
      'Votre engagement actuel : 25,50 € par mois.',
    )
    expect(screen.getByRole('button', { name: 'Modifier ma contribution' })).toBeInTheDocument()
    expect(dashboard.rewards?.contribution?.amount).toBe(25.5)
  })

  it('shows the server message when the daemon refuses the amount', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      json(422, {
        status: 422,
        title: 'Unprocessable Entity',
        detail: CONTRIBUTION_MESSAGES.max,
        errors: [{ location: 'body.amount', message: CONTRIBUTION_MESSAGES.max }],
      }),
    )
    const user = userEvent.setup()
    renderWithProviders(<RewardsPanel />)
    await user.click(screen.getByRole('button', { name: 'Devenir ambassadeur' }))
    const dialog = await screen.findByRole('dialog', { name: 'Programme ambassadeur' })
    await user.type(within(dialog).getByLabelText('Contribution mensuelle (€)'), '50')
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer mon engagement' }))
    expect(await within(dialog).findByText(CONTRIBUTION_MESSAGES.max)).toBeInTheDocument()
    expect(await screen.findByText('Échec de la modification')).toBeInTheDocument()
    expect(dashboard.rewards?.contribution).toBeNull()
  })

  it('lets a contributor stop', async () => {
    withStanding({
      ...standing,
      contribution: { amount: 40, since: '2026-11-01T09:00:00Z', updatedAt: '2026-11-02T09:00:00Z' },
    })
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(200, standing))
    const user = userEvent.setup()
    renderWithProviders(<RewardsPanel />)
    expect(text(screen.getByText(/Votre contribution :/))).toContain('40,00 € par mois')
    await user.click(screen.getByRole('button', { name: 'Modifier ma contribution' }))
    const dialog = await screen.findByRole('dialog', { name: 'Programme ambassadeur' })
    expect(within(dialog).getByLabelText('Contribution mensuelle (€)')).toHaveValue('40')
    await user.click(within(dialog).getByRole('button', { name: 'Arrêter ma contribution' }))
    expect(fetch).toHaveBeenCalledWith('/api/rewards/contribution', expect.objectContaining({ method: 'DELETE' }))
    expect(await screen.findByRole('button', { name: 'Devenir ambassadeur' })).toBeInTheDocument()
  })

  it('says the top level is reached', () => {
    withStanding({
      ...standing,
      level: 'super-ambassadeur',
      purchases: { ...standing.purchases, monthly: 2500 },
      contribution: { amount: 100, since: '2026-11-01T09:00:00Z', updatedAt: '2026-11-01T09:00:00Z' },
    })
    renderWithProviders(<RewardsPanel />)
    expect(screen.getByTestId('rewards-level')).toHaveTextContent('Super Ambassadeur certifié')
    expect(screen.getByText('Vous avez atteint le plus haut niveau de participation. Merci !')).toBeInTheDocument()
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
  })
})

describe('wording helpers', () => {
  it('orders ranks the French way', () => {
    expect([1, 2, 11].map(ordinal)).toEqual(['1er', '2e', '11e'])
  })

  it('says what is missing', () => {
    const t = (p: number, c: number) => missingText(progressToNext(p, c), c).replace(/\s/g, ' ')
    expect(t(100, 0)).toBe("Pour devenir Militant, il vous manque 400,00 € d'achats mensuels.")
    expect(t(1500, 0)).toBe(
      "Pour devenir Ambassadeur certifié, il vous manque une contribution mensuelle d'au moins 10,00 €.",
    )
    expect(t(1200, 30)).toBe(
      "Pour devenir Super Ambassadeur certifié, il vous manque 800,00 € d'achats mensuels et 70,00 € de contribution mensuelle en plus.",
    )
    expect(t(3000, 100)).toBe('')
  })
})
