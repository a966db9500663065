package planning

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestProductQuotesEveryImportMessage: docs/PRODUCT.md (§8 "File import
// errors", §8's upload table, §13) quotes every French message of the file
// import as the code words it, a {placeholder} standing for each value the
// code puts in.
func TestProductQuotesEveryImportMessage(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "PRODUCT.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	verb := regexp.MustCompile(`%[sd]`)
	for _, msg := range []string{
		MsgImportExtension, MsgImportLegacy, MsgImportMacro, MsgImportTooBig, MsgImportNoFile, MsgImportNotXLSX,
		MsgImportNotODS, MsgImportNotCSV, MsgImportEncrypted, MsgImportPassword, MsgImportEntries, MsgImportInflated,
		MsgImportEmpty, MsgImportNoHeader, MsgImportNoMonths, MsgImportNoRows, MsgImportManyMonths, MsgImportManyRows,
		msgImportSheets, msgImportNoSheet, msgImportSheetEmpty, msgImportBadMonth, msgImportNoYear, msgImportDupMonth,
		msgImportNoName, msgImportDupProduct, msgImportText, msgImportNegative, msgImportPieces, msgImportCell,
		msgImportOutside, msgImportTwice, msgImportFormula, msgImportFormulaError, msgImportUnknownUnit, msgImportUnit,
		msgImportMore, MsgImportBusy, MsgImportOneAtATime,
	} {
		parts := verb.Split(msg, -1)
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		// A placeholder is a {word} (or {words…}) of the documentation.
		if !regexp.MustCompile(`"` + strings.Join(parts, `\{[^}]+\}`) + `"`).MatchString(doc) {
			t.Errorf("docs/PRODUCT.md does not quote %q", msg)
		}
	}
}
