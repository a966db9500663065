package supplyui

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"primeur/core/printable"
	"primeur/core/supply"
)

// WriteReport prints the grid and the advice of a projection as plain text:
// the morning stock, the day's deliveries and the risk of each cell; the
// platform order proposed for the next day; the products at risk.
func WriteReport(w io.Writer, shop string, p supply.Projection) error {
	shop, p = printable.Line(shop), Printable(p)
	var b strings.Builder
	fmt.Fprintln(&b, Title)
	fmt.Fprintf(&b, "%s — du %s au %s (aujourd'hui : %s)\n\n", shop, LongDate(p.Start), LongDate(p.End), LongDate(p.Today))
	if len(p.Products) == 0 {
		fmt.Fprintln(&b, msgNoRows)
		_, err := io.WriteString(w, b.String())
		return err
	}
	if !p.HasDeliveries {
		fmt.Fprintln(&b, NoDeliveries(p, "choisissez d'autres dates avec --start.")+"\n")
	}

	fmt.Fprintln(&b, "Stock du matin, livraisons du jour (+) et risque (! couverture partielle, !! stock vide)")
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	header := msgProduct + "\t" + msgSales
	for _, d := range p.Dates {
		header += "\t" + ShortDate(d)
	}
	fmt.Fprintln(tw, header)
	var atRisk []string
	for _, row := range p.Products {
		label := rowLabel(row)
		if row.AtRisk {
			label += " *"
			atRisk = append(atRisk, row.Name)
		}
		line := label + "\t" + Number(row.AverageDailySales)
		for _, d := range row.Days {
			cell := cellText(d)
			if m := riskMark(d.Risk); m != "" {
				cell += " " + m
			}
			line += "\t" + cell
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintln(&b, "\nCommande plateforme proposée pour le lendemain")
	tw = tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	header = msgProduct
	for _, d := range p.Dates {
		header += "\t" + ShortDate(d)
	}
	fmt.Fprintln(tw, header)
	for _, row := range p.Products {
		line := rowLabel(row)
		for _, d := range row.Days {
			line += "\t" + Number(d.ProposedOrder)
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	b.WriteString("\n")
	if len(atRisk) > 0 {
		fmt.Fprintln(&b, "* "+msgAtRisk+strings.Join(atRisk, ", ")+".")
	} else {
		fmt.Fprintln(&b, msgNoRisk)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
