// "Recherche par code postal" (PRODUCT §2 "Map"): a combobox over the place
// reference of the server — every French commune, by postal code or name,
// fuzzy — whose pick the map centres on. Keyboard: arrows move in the list,
// Enter picks (the first suggestion when none is selected), Escape closes it.
import { Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core'
import { useEffect, useState } from 'react'
import { cityLabel } from './cities'
import { type PlaceMatch, placeHint, placeValue } from './places'
import { usePlaceSearch } from './usePlaceSearch'

const LIMIT = 8

export function MapSearch({ onPick }: { onPick: (match: PlaceMatch) => void }) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() })
  const [query, setQuery] = useState('')
  // The text last picked: the list stays closed until something else is typed.
  const [picked, setPicked] = useState<string | null>(null)
  const { matches, status } = usePlaceSearch(picked === query ? '' : query, { limit: LIMIT })

  // Enter pressed before the answer came: the answer's first place is taken.
  const [pendingEnter, setPendingEnter] = useState(false)

  const choose = (match: PlaceMatch) => {
    const label = cityLabel(match)
    setQuery(label)
    setPicked(label)
    setPendingEnter(false)
    combobox.closeDropdown()
    onPick(match)
  }
  const pick = (value: string) => {
    const match = matches.find((m) => placeValue(m) === value)
    if (match) choose(match)
  }

  // The first suggestion of a fresh answer is the one Enter takes.
  useEffect(() => {
    if (status !== 'done') return
    if (matches.length > 0) {
      if (pendingEnter) choose(matches[0])
      else combobox.selectFirstOption()
    } else {
      setPendingEnter(false)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [matches, status])

  const empty =
    status === 'error'
      ? 'La recherche est indisponible, réessayez dans un instant'
      : status === 'done'
        ? 'Aucune commune ne correspond'
        : 'Recherche…'

  return (
    <Combobox store={combobox} onOptionSubmit={pick} withinPortal={false}>
      <Combobox.Target withExpandedAttribute>
        <TextInput
          label="Recherche par code postal"
          description="Un code postal ou une commune : la carte s'y centre et liste les magasins à moins de 30 km."
          placeholder="74230 ou Thônes"
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value)
            setPendingEnter(false)
            // The answer on screen is the previous query's until the new one comes: nothing to take yet.
            combobox.resetSelectedOption()
            combobox.openDropdown()
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && status !== 'done' && query.trim() !== '' && picked !== query) {
              e.preventDefault()
              setPendingEnter(true)
            }
          }}
          onFocus={() => query.trim() && combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          rightSection={status === 'loading' ? <Loader size="xs" /> : null}
          autoComplete="off"
          type="search"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={query.trim() === '' || picked === query}>
        <Combobox.Options aria-label="Communes trouvées" aria-busy={status === 'loading'}>
          {matches.length === 0 ? (
            <Combobox.Empty>{empty}</Combobox.Empty>
          ) : (
            matches.map((m) => (
              <Combobox.Option key={placeValue(m)} value={placeValue(m)}>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm">{cityLabel(m)}</Text>
                  {placeHint(m) ? (
                    <Text size="xs" c="dimmed">
                      {placeHint(m)}
                    </Text>
                  ) : null}
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  )
}
