import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetPlaces } from '../store/places'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { ALLEVES, ANNECY, ANNEMASSE, MANIGOD, SERRAVAL, THONES, near, stubPlaces } from '../test/places'
import { renderWithProviders } from '../test/render'
import { SHOP_INVISIBLE } from '../onboarding/checklist'
import { ADDRESS_MESSAGES } from '../validation/address'
import { IDENTIFIER_MESSAGES, IDENTIFIER_NOTICE } from '../validation/identifiers'
import { PROFILE_MESSAGES } from '../validation/profile'
import { BANK_PASSWORD, ProfileForm, profileChanges } from './ProfileForm'

beforeEach(() => {
  resetState('x@exemple.fr')
  resetPlaces()
})

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

  it('shows examples as examples, never as values (issue 37)', () => {
    renderWithProviders(<ProfileForm user={{ ...distributor, tel: '', siret: '', iban: '' }} onClose={() => {}} />)
    for (const [label, text] of [
      ['Téléphone', 'ex. : 06 12 34 56 78'],
      ['Code postal', 'ex. : 74000'],
      ['IBAN', 'ex. : FR76 3000 6000 0112 3456 7890 189'],
    ]) {
      const field = screen.getByLabelText(label)
      expect(field).toHaveValue('')
      expect(field).toHaveAttribute('placeholder', text)
    }
    // Every placeholder of the form says it is an example.
    const placeholders = [...document.querySelectorAll('input[placeholder]')].map((i) => i.getAttribute('placeholder'))
    expect(placeholders.length).toBeGreaterThan(5)
    for (const p of placeholders) if (p !== 'Choisir au moins un jour...') expect(p).toMatch(/^ex\. : /)
  })

  it('shows the role fields', () => {
    const { unmount } = renderWithProviders(<ProfileForm user={producer} onClose={() => {}} />)
    expect(screen.getByLabelText('Jours de livraison', { selector: 'input' })).toBeInTheDocument()
    expect(screen.queryByLabelText('Adresse de facturation')).not.toBeInTheDocument()
    unmount()
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    expect(screen.queryByLabelText('Jours de livraison', { selector: 'input' })).not.toBeInTheDocument()
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
    await user.type(screen.getByLabelText('Adresse de facturation'), ' BP 42 ')
    await user.type(screen.getByLabelText('Latitude'), '45.9')
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(await screen.findByRole('button', { name: 'en cours...' })).toBeDisabled()

    const [url, init] = fetch.mock.calls[0]
    expect(url).toBe('/api/user')
    expect(init?.method).toBe('PUT')
    expect(JSON.parse(String(init?.body))).toEqual({ billingAddressLine1: 'BP 42', latitude: '45.9' })

    const saved = { ...distributor, billingAddressLine1: 'BP 42', latitude: '45.9' }
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

describe('ProfileForm address and position', () => {
  it('asks the address in order: street, complement, postal code, town, then the position', () => {
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    const address = screen.getByRole('group', { name: 'Adresse du magasin' })
    const labels = [...address.querySelectorAll('label')].map((l) => l.textContent)
    expect(labels).toEqual(['Adresse', "Complément d'adresse", 'Code postal', 'Ville', 'Latitude', 'Longitude'])
    expect(screen.getByRole('img', { name: /Carte de la position : aucun repère/ })).toBeInTheDocument()
  })

  it('tells a shop without position that producers cannot see it, until the town places it', async () => {
    stubPlaces({ '74000 annecy': [ANNECY] })
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    expect(screen.getByText(new RegExp(SHOP_INVISIBLE))).toBeInTheDocument()

    await user.type(screen.getByLabelText('Code postal'), '74000')
    await user.type(screen.getByRole('combobox', { name: 'Ville' }), 'annecy')
    await user.tab()
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveValue('45.90878'))
    expect(screen.getByLabelText('Longitude')).toHaveValue('6.12565')
    expect(screen.getByRole('status')).toHaveTextContent("Position placée au centre d'Annecy")
    expect(screen.queryByText(new RegExp(SHOP_INVISIBLE))).not.toBeInTheDocument()
    expect(screen.getByRole('img', { name: /repère à 45,90878° N, 6,12565° E/ })).toBeInTheDocument()
  })

  it('suggests the communes of the postal code and places a village picked among them', async () => {
    stubPlaces({ '74230': [THONES, MANIGOD, SERRAVAL], '74230 serraval': [SERRAVAL] })
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    await user.type(screen.getByLabelText('Code postal'), '74230')
    await user.click(screen.getByRole('combobox', { name: 'Ville' }))
    expect(await screen.findByRole('option', { name: 'Serraval' })).toBeInTheDocument()
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Thônes', 'Manigod', 'Serraval'])
    await user.click(screen.getByRole('option', { name: 'Serraval' }))
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveValue('45.80098'))
    expect(screen.getByRole('status')).toHaveTextContent('Position placée au centre de Serraval')
  })

  it('says when the town is not a commune of the postal code, placing on the code, and refuses nothing', async () => {
    stubPlaces({ '74230 annecy': [THONES, MANIGOD, SERRAVAL] })
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    await user.type(screen.getByLabelText('Code postal'), '74230')
    await user.type(screen.getByRole('combobox', { name: 'Ville' }), 'Annecy')
    await user.tab()
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        "Annecy n'est pas une commune du 74230 : position placée sur Thônes, de même code postal. Vérifiez la ville",
      ),
    )
    expect(screen.getByLabelText('Latitude')).toHaveValue('45.88123')
    expect(screen.queryByText(ADDRESS_MESSAGES.town)).not.toBeInTheDocument()
  })

  it('places a CEDEX code near the commune of the nearest code, and a commune without a point from its neighbours', async () => {
    stubPlaces({ '74011 annecy cedex': [near(ANNECY)], '74540 allèves': [ALLEVES] })
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    await user.type(screen.getByLabelText('Code postal'), '74011')
    await user.type(screen.getByRole('combobox', { name: 'Ville' }), 'Annecy Cedex')
    await user.tab()
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        "Aucune commune n'a le code postal 74011 (code CEDEX ?) : position approchée sur Annecy (74000).",
      ),
    )
    expect(screen.getByLabelText('Latitude')).toHaveValue('45.90878')

    await user.clear(screen.getByLabelText('Code postal'))
    await user.type(screen.getByLabelText('Code postal'), '74540')
    await user.clear(screen.getByRole('combobox', { name: 'Ville' }))
    await user.type(screen.getByRole('combobox', { name: 'Ville' }), 'Allèves')
    await user.tab()
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        "Position approchée d'Allèves, d'après les communes voisines",
      ),
    )
    expect(screen.getByLabelText('Latitude')).toHaveValue('45.80500')
  })

  it('keeps a position moved by hand when the same town is typed again', async () => {
    stubPlaces({ '74000 annecy': [ANNECY], '74100 annemasse': [ANNEMASSE] })
    const user = userEvent.setup()
    const shop = { ...distributor, addressLine3: '74000 Annecy', latitude: '45.9009', longitude: '6.1265' }
    renderWithProviders(<ProfileForm user={shop} onClose={() => {}} />)
    expect(screen.getByLabelText('Code postal')).toHaveValue('74000')
    expect(screen.getByRole('combobox', { name: 'Ville' })).toHaveValue('Annecy')
    const town = screen.getByRole('combobox', { name: 'Ville' })
    await user.clear(town)
    await user.type(town, 'Annecy')
    await user.tab()
    expect(screen.getByLabelText('Latitude')).toHaveValue('45.9009')
    // Another town moves it.
    await user.clear(screen.getByLabelText('Code postal'))
    await user.type(screen.getByLabelText('Code postal'), '74100')
    await user.clear(town)
    await user.type(town, 'Annemasse')
    await user.tab()
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveValue('46.19439'))
  })

  it('keeps a position typed by hand while the town was being looked up', async () => {
    // The reference answers only once the position has been typed.
    const pending: (() => void)[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (input) =>
        new Promise((resolve) => {
          const answer = String(input).startsWith('/api/places') ? { places: [ANNECY] } : {}
          pending.push(() => resolve(new Response(JSON.stringify(answer))))
        }),
    )
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    await user.type(screen.getByLabelText('Code postal'), '74000')
    await user.type(screen.getByRole('combobox', { name: 'Ville' }), 'Annecy')
    await user.tab()
    await user.clear(screen.getByLabelText('Latitude'))
    await user.type(screen.getByLabelText('Latitude'), '45.8992')
    await user.clear(screen.getByLabelText('Longitude'))
    await user.type(screen.getByLabelText('Longitude'), '6.1294')
    await waitFor(() => expect(pending.length).toBeGreaterThan(0))
    for (const answer of pending.splice(0)) answer()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.getByLabelText('Latitude')).toHaveValue('45.8992')
    expect(screen.getByLabelText('Longitude')).toHaveValue('6.1294')
  })

  it('checks the postal code and asks the town with it', async () => {
    stubPlaces({})
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={distributor} onClose={() => {}} />)
    await user.type(screen.getByLabelText('Code postal'), '7400')
    await user.tab()
    expect(screen.getByText(ADDRESS_MESSAGES.postcode)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeDisabled()
    await user.type(screen.getByLabelText('Code postal'), '0')
    expect(screen.queryByText(ADDRESS_MESSAGES.postcode)).not.toBeInTheDocument()
    await user.click(screen.getByRole('combobox', { name: 'Ville' }))
    await user.tab()
    expect(screen.getByText(ADDRESS_MESSAGES.town)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeDisabled()
  })

  it('sends the three address lines, the postal code and town in the third', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (input) =>
        String(input).startsWith('/api/places')
          ? new Response(JSON.stringify({ places: [ANNECY] }))
          : new Response(JSON.stringify({ user: distributor, orders: [] })),
      )
    const user = userEvent.setup()
    // The demo keeps "74000 Annecy" in the second line: the form reads it as the postal line.
    const shop = { ...distributor, addressLine1: '12 rue Sommeiller', addressLine2: '74000 Annecy' }
    renderWithProviders(<ProfileForm user={shop} onClose={() => {}} />)
    expect(screen.getByLabelText("Complément d'adresse")).toHaveValue('')
    await user.type(screen.getByLabelText("Complément d'adresse"), 'Bâtiment B')
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    await waitFor(() => expect(fetch.mock.calls.some((c) => c[1]?.method === 'PUT')).toBe(true))
    const put = fetch.mock.calls.find((c) => c[1]?.method === 'PUT')!
    expect(JSON.parse(String(put[1]?.body))).toEqual({
      addressLine1: '12 rue Sommeiller',
      addressLine2: 'Bâtiment B',
      addressLine3: '74000 Annecy',
    })
  })

  it('scrolls to and focuses the field it is asked to', async () => {
    renderWithProviders(<ProfileForm user={producer} onClose={() => {}} focus={{ field: 'siret', at: 1 }} />)
    await waitFor(() => expect(screen.getByLabelText('SIRET')).toHaveFocus())
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

  it('sends the address lines together when a part of the address changed', () => {
    const initial = { addressLine1: '1 rue', addressLine2: '', postcode: '74000', town: 'Annecy' }
    expect(profileChanges('distributor', initial, { ...initial, postcode: '74 000', town: ' Annecy ' })).toEqual({})
    expect(profileChanges('distributor', initial, { ...initial, town: 'Annecy Cedex' })).toEqual({
      addressLine1: '1 rue',
      addressLine2: '',
      addressLine3: '74000 Annecy Cedex',
    })
  })
})

// PRODUCT §5 "Identifiers", §13 "Changing the bank details".
describe('ProfileForm identifiers and bank details', () => {
  const bank = () => screen.getByRole('group', { name: 'Coordonnées bancaires' })
  const problem = (detail: string, location: string) =>
    new Response(
      JSON.stringify({ status: 422, title: 'Unprocessable Entity', detail, errors: [{ location, message: detail }] }),
      { status: 422, headers: { 'Content-Type': 'application/problem+json' } },
    )

  it('tells identifiers stored invalid and saves another field all the same', async () => {
    // A fresh answer per call: the producer's "Facturation électronique" reads its connection too.
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => new Response(JSON.stringify({ user: producer, orders: [] })))
    const user = userEvent.setup()
    const stored = {
      ...producer,
      siret: '11111111111111',
      identifierIssues: [
        { field: 'siret' as const, message: 'Le SIRET enregistré dans votre profil n’est pas valide.' },
      ],
    }
    renderWithProviders(<ProfileForm user={stored} onClose={() => {}} />)
    expect(screen.getByRole('region', { name: IDENTIFIER_NOTICE.title })).toHaveTextContent(
      'Le SIRET enregistré dans votre profil n’est pas valide.',
    )
    // The stored SIRET shows no blocking error.
    expect(screen.queryByText(PROFILE_MESSAGES.siret)).not.toBeInTheDocument()
    await user.type(screen.getByLabelText('Téléphone'), '0612345678')
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    await waitFor(() => expect(fetch.mock.calls.some((c) => c[1]?.method === 'PUT')).toBe(true))
    expect(JSON.parse(String(fetch.mock.calls.find((c) => c[1]?.method === 'PUT')![1]?.body))).toEqual({
      tel: '0612345678',
    })

    // A new SIRET is checked; one of another company than the VAT number is refused.
    const siret = screen.getByLabelText('SIRET')
    await user.clear(siret)
    await user.type(siret, '11111111111112')
    await user.tab()
    expect(screen.getByText(PROFILE_MESSAGES.siret)).toBeInTheDocument()
    await user.clear(siret)
    await user.type(siret, '84261530400016')
    await user.type(screen.getByLabelText('N° de TVA intracommunautaire'), 'FR44732829320')
    await user.tab()
    expect(screen.getByText(IDENTIFIER_MESSAGES.vatSiret)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeDisabled()
  })

  it('asks the current password when the IBAN changes, sends it, and shows a wrong one under it', async () => {
    // The producer's "Facturation électronique" reads its connection (GET); the save is refused.
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (_input, init) =>
        init?.method === 'PUT'
          ? problem('Le mot de passe actuel est incorrect.', 'body.currentPassword')
          : new Response(
              JSON.stringify({ connected: false, secretReadable: false, deposited: 0, failing: 0, outside: 0 }),
            ),
      )
    const user = userEvent.setup()
    renderWithProviders(<ProfileForm user={{ ...producer, iban: 'FR7630006000011234567890189' }} onClose={() => {}} />)
    expect(within(bank()).queryByLabelText(BANK_PASSWORD.label)).not.toBeInTheDocument()
    const iban = screen.getByLabelText('IBAN')
    await user.clear(iban)
    await user.type(iban, 'FR76 1010 7001 0112 3456 7890 129')
    const password = within(bank()).getByLabelText(BANK_PASSWORD.label)
    expect(screen.getByText(BANK_PASSWORD.description)).toBeInTheDocument()
    const save = screen.getByRole('button', { name: 'Enregistrer' })
    expect(save).toBeDisabled()
    await user.click(password)
    await user.tab()
    expect(screen.getByText(PROFILE_MESSAGES.currentPassword)).toBeInTheDocument()

    await user.type(password, 'mauvais123')
    expect(save).toBeEnabled()
    await user.click(save)
    await waitFor(() => expect(fetch.mock.calls.some((c) => c[1]?.method === 'PUT')).toBe(true))
    expect(JSON.parse(String(fetch.mock.calls.find((c) => c[1]?.method === 'PUT')![1]?.body))).toEqual({
      iban: 'FR76 1010 7001 0112 3456 7890 129',
      currentPassword: 'mauvais123',
    })
    expect(await screen.findAllByText('Le mot de passe actuel est incorrect.')).not.toHaveLength(0)

    // Typed back as stored, spaces aside: no password asked.
    await user.clear(iban)
    await user.type(iban, 'fr76 3000 6000 0112 3456 7890 189')
    expect(within(bank()).queryByLabelText(BANK_PASSWORD.label)).not.toBeInTheDocument()
  })

  it('sends the password only with a change of bank details', () => {
    const initial = { iban: 'FR7630006000011234567890189', bic: '' }
    expect(profileChanges('producer', initial, { ...initial, bic: 'AGRIFRPP882', currentPassword: 'x1' })).toEqual({
      bic: 'AGRIFRPP882',
      currentPassword: 'x1',
    })
    expect(profileChanges('producer', initial, { ...initial, tel: '0612345678', currentPassword: 'x1' })).toEqual({
      tel: '0612345678',
    })
  })
})
