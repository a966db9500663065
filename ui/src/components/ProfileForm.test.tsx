import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { PROFILE_MESSAGES } from '../validation/profile'
import { ProfileForm, profileChanges } from './ProfileForm'

beforeEach(() => resetState('x@exemple.fr'))

describe('ProfileForm', () => {
  it('enables save only once a field was touched and the form is valid', async () => {
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={producer} onClose={() => {}} />)
    expect(screen.getByRole('heading', { name: 'Informations de profil' })).toBeInTheDocument()
    const save = screen.getByRole('button', { name: 'Enregistrer' })
    expect(save).toBeDisabled()

    const tel = screen.getByLabelText('Téléphone')
    await user.type(tel, '06 12')
    expect(save).toBeDisabled()
    await user.tab()
    expect(screen.getByText(PROFILE_MESSAGES.tel)).toBeInTheDocument()

    await user.type(tel, ' 34 56 78')
    expect(screen.queryByText(PROFILE_MESSAGES.tel)).not.toBeInTheDocument()
    expect(save).toBeEnabled()

    await user.type(screen.getByLabelText('IBAN'), 'FR76 3000 6000 0112 3456 7890 188')
    await user.tab()
    expect(screen.getByText(PROFILE_MESSAGES.iban)).toBeInTheDocument()
    expect(save).toBeDisabled()
  })

  it('shows the role fields', () => {
    const { unmount } = renderWithProviders(<ProfileForm user={producer} onClose={() => {}} />)
    expect(screen.getByLabelText('Jours de livraison', { selector: 'input' })).toBeInTheDocument()
    expect(screen.queryByLabelText('Email de la comptabilité')).not.toBeInTheDocument()
    unmount()
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    expect(screen.queryByLabelText('Jours de livraison', { selector: 'input' })).not.toBeInTheDocument()
    expect(screen.getByLabelText('Email de la comptabilité')).toBeInTheDocument()
    expect(screen.getByLabelText('Adresse de facturation')).toBeInTheDocument()
  })

  it('asks a producer without delivery days to choose one', () => {
    renderWithProviders(
      <ProfileForm
        user={{ ...producer, defaultDeliveryDays: [false, false, false, false, false, false, false] }}
        onClose={() => {}}
      />,
    )
    expect(screen.getByText(PROFILE_MESSAGES.defaultDeliveryDays)).toBeInTheDocument()
    expect(screen.getByPlaceholderText('Choisir au moins un jour...')).toBeInTheDocument()
  })

  it('picks delivery days with the day picker', async () => {
    const user = userEvent.setup()
    renderWithProviders(
      <ProfileForm
        user={{ ...producer, defaultDeliveryDays: [false, false, false, false, false, false, false] }}
        onClose={() => {}}
      />,
    )
    const save = screen.getByRole('button', { name: 'Enregistrer' })
    expect(save).toBeDisabled()
    await user.click(screen.getByLabelText('Jours de livraison', { selector: 'input' }))
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Lundi',
      'Mardi',
      'Mercredi',
      'Jeudi',
      'Vendredi',
      'Samedi',
      'Dimanche',
    ])
    await user.click(screen.getByRole('option', { name: 'Mardi' }))
    expect(screen.queryByText(PROFILE_MESSAGES.defaultDeliveryDays)).not.toBeInTheDocument()
    expect(save).toBeEnabled()
  })

  it('saves the changed fields, replaces user and orders, and shows "en cours..." meanwhile', async () => {
    let resolve!: (r: Response) => void
    const fetch = vi.spyOn(globalThis, 'fetch').mockReturnValue(new Promise((r) => (resolve = r)))
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    await user.type(screen.getByLabelText('Email de la comptabilité'), ' compta@epicerie.fr ')
    await user.type(screen.getByLabelText('Latitude'), '45.9')
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(await screen.findByRole('button', { name: 'en cours...' })).toBeDisabled()

    const [url, init] = fetch.mock.calls[0]
    expect(url).toBe('/api/user')
    expect(init?.method).toBe('PUT')
    expect(JSON.parse(String(init?.body))).toEqual({ emailAccounting: 'compta@epicerie.fr', latitude: '45.9' })

    const saved = { ...distributor, emailAccounting: 'compta@epicerie.fr', latitude: '45.9' }
    resolve(new Response(JSON.stringify({ user: saved, orders: [{ _id: 'o1', date: '2026-12-01', deliveries: [] }] })))
    await waitFor(() => expect(state.user).toEqual(saved))
    expect(state.orders).toHaveLength(1)
    expect(await screen.findByText('Modification effectuée')).toBeInTheDocument()
  })

  it('calls onClose from the close buttons', async () => {
    const onClose = vi.fn()
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={producer} onClose={onClose} />)
    for (const button of screen.getAllByRole('button', { name: 'Fermer' })) await user.click(button)
    expect(onClose).toHaveBeenCalledTimes(2)
  })
})

describe('profileChanges', () => {
  it('sends only changed, trimmed fields and the days when they changed', () => {
    const initial = { name: 'A', tel: '', defaultDeliveryDays: [true, false, false, false, false, false, false] }
    expect(profileChanges('producer', initial, { ...initial, tel: ' 0612345678 ', name: 'A ' })).toEqual({
      tel: '0612345678',
    })
    expect(
      profileChanges('producer', initial, {
        ...initial,
        defaultDeliveryDays: [false, true, false, false, false, false, false],
      }),
    ).toEqual({ defaultDeliveryDays: [false, true, false, false, false, false, false] })
    expect(profileChanges('producer', initial, initial)).toEqual({})
  })
})
