package supplyui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/printable"
	"primeur/core/supply"
)

// Fetcher loads the projection of a window; an empty start means the
// current week.
type Fetcher func(ctx context.Context, start string, days int) (supply.Projection, error)

// Texts of the detail, as on the web screen.
const (
	LabelOrder          = "Commande plateforme proposée pour le lendemain"
	LabelAssumptions    = "Hypothèses"
	LabelMorningStock   = "Stock local restant le matin"
	LabelDeliveries     = "Livraisons du jour"
	LabelNextDeliveries = "Livraisons du lendemain"
	LabelNeed           = "Besoin du jour"
	LabelNextNeed       = "Besoin du lendemain"
	labelNone           = "aucune"
	msgLoading          = "Chargement en cours"
	helpGrid            = "←→ jour  ↑↓ produit  Entrée détail  t aujourd'hui  q quitter  ! partiel × vide"
	helpDetail          = "←→ jour  ↑↓ produit  Échap retour  t aujourd'hui  q quitter"
)

// Layout of the grid: the product column, the average sales column and one
// column per day. Narrow terminals show fewer days, wide ones 8 (as a
// high-density screen does).
const (
	nameWidth  = 15
	salesWidth = 9
	cellWidth  = 11                                       // a selection mark, 8 characters, the risk mark, a selection mark
	wideWidth  = nameWidth + salesWidth + 8*cellWidth + 1 // 8 days from here
	headLines  = 3                                        // title, subtitle, column header
	footLines  = 3                                        // message (two lines), help
)

// daysFor is the window length a terminal width shows.
func daysFor(width int) int {
	if width >= wideWidth {
		return 8
	}
	n := (width - nameWidth - salesWidth) / cellWidth
	return max(1, min(supply.DefaultDays, n))
}

var (
	titleStyle  = lipgloss.NewStyle().Bold(true)
	dimStyle    = lipgloss.NewStyle().Faint(true)
	errorStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("1")).Bold(true)
	atRiskStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("1"))
	riskStyles  = [3]lipgloss.Style{
		lipgloss.NewStyle().Background(lipgloss.Color("#2f9e44")).Foreground(lipgloss.Color("#ffffff")),
		lipgloss.NewStyle().Background(lipgloss.Color("#f59f00")).Foreground(lipgloss.Color("#000000")),
		lipgloss.NewStyle().Background(lipgloss.Color("#e03131")).Foreground(lipgloss.Color("#ffffff")),
	}
)

// Model is the terminal viewer of a shop's stock grid.
type Model struct {
	fetch   Fetcher
	shop    string
	data    supply.Projection
	start   string // the window asked for; "" is the current week
	days    int
	row     int
	product string // the selected product's id, kept across windows
	col     int
	top     int
	detail  bool
	toToday bool
	width   int
	height  int
	seq     int
	loading bool
	err     string
}

// New shows first, a projection already loaded for the shop.
func New(shop string, fetch Fetcher, first supply.Projection) Model {
	first = Printable(first)
	m := Model{fetch: fetch, shop: printable.Line(shop), data: first, start: first.Start, days: first.Days, width: 80, height: 24}
	m.col = todayColumn(first)
	m.clamp()
	return m
}

// Start is the first day shown; Days the window's length; Selected the
// selected product and day; Detail whether the detail is open.
func (m Model) Start() string { return m.data.Start }

// Days is the window's length.
func (m Model) Days() int { return m.data.Days }

// Selected is the selected product id and day.
func (m Model) Selected() (string, string) {
	if len(m.data.Products) == 0 {
		return "", ""
	}
	return m.data.Products[m.row].Product, m.data.Dates[m.col]
}

// Detail tells whether the detail is open.
func (m Model) Detail() bool { return m.detail }

type loadedMsg struct {
	seq int
	p   supply.Projection
	err error
}

// Init does nothing: the first projection is already there.
func (m Model) Init() tea.Cmd { return nil }

// load asks for the window (start, days).
func (m *Model) load(start string, days int) tea.Cmd {
	m.seq++
	m.loading = true
	m.start, m.days = start, days
	seq, fetch := m.seq, m.fetch
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p, err := fetch(ctx, start, days)
		return loadedMsg{seq: seq, p: Printable(p), err: err}
	}
}

// shift moves the window by n days.
func (m *Model) shift(n int) tea.Cmd {
	d, ok := calendar.ParseDate(m.start)
	if !ok {
		d, _ = calendar.ParseDate(m.data.Start)
	}
	return m.load(d.AddDays(n).String(), m.days)
}

// Update handles keys, resizes and answers.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.clamp()
		if n := daysFor(m.width); n != m.days {
			return m, m.load(m.start, n)
		}
	case loadedMsg:
		if msg.seq != m.seq {
			return m, nil // an answer overtaken by a later request
		}
		m.loading = false
		if msg.err != nil {
			m.err = printable.Line(msg.err.Error())
			return m, nil
		}
		m.err = ""
		m.data, m.start = msg.p, msg.p.Start
		if m.toToday {
			m.col, m.toToday = todayColumn(m.data), false
		}
		m.row = 0
		for i, p := range m.data.Products {
			if p.Product == m.product {
				m.row = i
			}
		}
		m.clamp()
	case tea.KeyMsg:
		switch msg.String() {
		case "q", "ctrl+c":
			return m, tea.Quit
		case "esc", "backspace":
			m.detail = false
		case "enter":
			m.detail = !m.detail && len(m.data.Products) > 0
		case "left", "h":
			if m.col > 0 {
				m.col--
			} else {
				return m, m.shift(-1)
			}
		case "right", "l":
			if m.col < m.data.Days-1 {
				m.col++
			} else {
				return m, m.shift(1)
			}
		case "up", "k":
			m.row--
		case "down", "j":
			m.row++
		case "pgup":
			m.row -= m.visibleRows()
		case "pgdown":
			m.row += m.visibleRows()
		case "t":
			m.toToday = true
			return m, m.load("", m.days)
		}
		m.clamp()
	}
	return m, nil
}

// riskChar marks a cell's risk for terminals without colours.
func riskChar(r int) string {
	switch r {
	case supply.RiskPartial:
		return "!"
	case supply.RiskEmpty:
		return "×"
	}
	return " "
}

// todayColumn is today's column in the window, else the first.
func todayColumn(p supply.Projection) int {
	for i, d := range p.Dates {
		if d == p.Today {
			return i
		}
	}
	return 0
}

func (m Model) visibleRows() int { return max(1, m.height-headLines-footLines) }

// clamp keeps the selection inside the grid and visible.
func (m *Model) clamp() {
	n := len(m.data.Products)
	m.row = max(0, min(m.row, n-1))
	m.col = max(0, min(m.col, len(m.data.Dates)-1))
	if n > 0 {
		m.product = m.data.Products[m.row].Product
	}
	if m.row < m.top {
		m.top = m.row
	}
	if v := m.visibleRows(); m.row >= m.top+v {
		m.top = m.row - v + 1
	}
	m.top = max(0, min(m.top, max(0, n-m.visibleRows())))
}

// View draws the grid or the detail, cut to the terminal.
func (m Model) View() string {
	var lines []string
	if m.detail && len(m.data.Products) > 0 {
		lines = m.detailLines()
	} else {
		lines = m.gridLines()
	}
	cut := lipgloss.NewStyle().MaxWidth(m.width)
	for i := range lines {
		lines[i] = cut.Render(lines[i])
	}
	if len(lines) > m.height && m.height > 0 {
		lines = append(lines[:m.height-1], lines[len(lines)-1])
	}
	return strings.Join(lines, "\n")
}

func (m Model) status() string {
	switch {
	case m.err != "":
		return errorStyle.Render(m.err)
	case m.loading:
		return dimStyle.Render(msgLoading + "…")
	case len(m.data.Products) == 0:
		return msgNoRows
	case !m.data.HasDeliveries:
		return NoDeliveries(m.data, "utilisez les flèches ← → pour changer de dates.")
	}
	return ""
}

// statusLines is the status wrapped on two lines.
func (m Model) statusLines() []string {
	out := strings.Split(lipgloss.NewStyle().Width(max(10, m.width)).Render(m.status()), "\n")
	for len(out) < 2 {
		out = append(out, "")
	}
	return out[:2]
}

func pad(s string, w int) string {
	if n := lipgloss.Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

func padLeft(s string, w int) string {
	if n := lipgloss.Width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

func (m Model) gridLines() []string {
	lines := []string{
		titleStyle.Render(Title),
		fmt.Sprintf("%s — du %s au %s", m.shop, LongDate(m.data.Start), LongDate(m.data.End)),
	}
	head := pad(msgProduct, nameWidth) + padLeft(msgSales, salesWidth-1) + " "
	for _, d := range m.data.Dates {
		label := ShortDate(d)
		if d == m.data.Today {
			label = titleStyle.Render(label)
		}
		head += " " + pad(label, cellWidth-1)
	}
	lines = append(lines, head)
	end := min(len(m.data.Products), m.top+m.visibleRows())
	for i := m.top; i < end; i++ {
		p := m.data.Products[i]
		name := fit(rowLabel(p), nameWidth-3)
		if p.AtRisk {
			name = atRiskStyle.Render(name + " *")
		}
		line := pad(name, nameWidth) + padLeft(Number(p.AverageDailySales), salesWidth-1) + " "
		for j, d := range p.Days {
			text := pad(fit(cellText(d), cellWidth-3), cellWidth-3) + riskChar(d.Risk)
			cell := riskStyles[d.Risk].Render(" " + text + " ")
			if i == m.row && j == m.col {
				cell = lipgloss.NewStyle().Reverse(true).Bold(true).Render(">" + text + "<")
			}
			line += cell
		}
		lines = append(lines, line)
	}
	for len(lines) < headLines+m.visibleRows() {
		lines = append(lines, "")
	}
	return append(append(lines, m.statusLines()...), dimStyle.Render(helpGrid))
}

func (m Model) detailLines() []string {
	p := m.data.Products[m.row]
	d := p.Days[m.col]
	names := producerNames(m.data)
	row := func(label, value string) string { return "  " + pad(label, 44) + value }
	lines := []string{
		titleStyle.Render(Title),
		fmt.Sprintf("%s — %s", m.shop, rowLabel(p)),
		LongDate(d.Date) + " · " + riskStyles[d.Risk].Render(" "+RiskLabel(d.Risk)+" "),
		"",
		titleStyle.Render(LabelOrder + " : " + Quantity(d.ProposedOrder, p.Unit)),
		"",
		titleStyle.Render(LabelAssumptions),
		row(LabelMorningStock, Quantity(d.MorningStock, p.Unit)),
	}
	deliveries := func(label string, list []supply.Incoming) {
		if len(list) == 0 {
			lines = append(lines, row(label, labelNone))
			return
		}
		lines = append(lines, row(label, Quantity(sum(list), p.Unit)))
		byName := make([]supply.Incoming, len(list))
		copy(byName, list)
		sort.SliceStable(byName, func(i, j int) bool { return nameOf(names, byName[i]) < nameOf(names, byName[j]) })
		for _, in := range byName {
			lines = append(lines, "    "+pad(fit(nameOf(names, in), 40), 42)+Quantity(in.Quantity, p.Unit))
		}
	}
	deliveries(LabelDeliveries, d.Deliveries)
	deliveries(LabelNextDeliveries+" ("+ShortDate(d.NextDate)+")", d.NextDeliveries)
	lines = append(lines,
		row(LabelNeed, Quantity(d.Need, p.Unit)),
		row(LabelNextNeed+" ("+ShortDate(d.NextDate)+")", Quantity(d.NextNeed, p.Unit)),
		"",
		fmt.Sprintf("Ventes moyennes : %s/j", Quantity(p.AverageDailySales, p.Unit)),
	)
	if p.AtRisk {
		text := "Produit à risque : livraisons des 7 jours avant aujourd'hui (" +
			Quantity(p.DeliveredLast7Days, p.Unit) + ") inférieures à 7 fois les ventes moyennes."
		for _, l := range strings.Split(lipgloss.NewStyle().Width(max(10, m.width)).Render(text), "\n") {
			lines = append(lines, atRiskStyle.Render(l))
		}
	}
	for len(lines) < m.height-footLines {
		lines = append(lines, "")
	}
	return append(append(lines, m.statusLines()...), dimStyle.Render(helpDetail))
}

// nameOf is a producer's name, its id when unknown.
func nameOf(names map[string]string, in supply.Incoming) string {
	if n := names[in.Producer]; n != "" {
		return n
	}
	return in.Producer
}

// sum totals a day's deliveries.
func sum(list []supply.Incoming) decimal.Dec {
	var t decimal.Dec
	for _, in := range list {
		t += in.Quantity
	}
	return t
}
