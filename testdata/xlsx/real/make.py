#!/usr/bin/env python3
"""Makes the real-world corpus of testdata/xlsx/real the way shops make their
files: LibreOffice Calc (a flat ODS written here, converted by `soffice
--headless --convert-to xlsx`, or opened in a French LibreOffice driven
through its UNO API — a sheet duplicated, edited, made active, cells merged
— and saved as .ods, .xlsx and .csv in UTF-8 and Windows-1252), Gnumeric (a
CSV converted by `ssconvert`) and openpyxl (scripts write formulas without
cached results, as openpyxl always does). Files written as ExcelJS and EPPlus
write them (shared formulas, tables) come from Go: `go test ./core/planning
-run TestScriptFiles -update`. Run it from anywhere: `python3
testdata/xlsx/real/make.py [NAME…]` (Debian: libreoffice-calc,
libreoffice-l10n-fr, python3-uno, gnumeric, python3-openpyxl); with names,
only those files are made again. Each file's expected outcome is its
NAME.want.json, written by hand beside it (see README.md)."""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from xml.sax.saxutils import escape

import openpyxl

HERE = os.path.dirname(os.path.abspath(__file__))
NBSP, NNBSP = "\u00a0", "\u202f"


# --- LibreOffice -----------------------------------------------------------

def cell(v):
    """A FODS cell: None, a number, a str, ("date", "2027-01-01"),
    ("f", "of:=[.B2]*2"), ("merge", n, value) or "covered"."""
    if v is None:
        return "<table:table-cell/>"
    if v == "covered":
        return "<table:covered-table-cell/>"
    if isinstance(v, tuple) and v[0] == "merge":
        inner = cell(v[2])
        return inner.replace("<table:table-cell", '<table:table-cell table:number-columns-spanned="%d"' % v[1], 1)
    if isinstance(v, tuple) and v[0] == "date":
        return ('<table:table-cell table:style-name="date" office:value-type="date" office:date-value="%s">'
                "<text:p>%s</text:p></table:table-cell>" % (v[1], v[1]))
    if isinstance(v, tuple) and v[0] == "thousands":
        return ('<table:table-cell table:style-name="thousands" office:value-type="float" office:value="%r">'
                "<text:p>%s</text:p></table:table-cell>" % (v[1], v[1]))
    if isinstance(v, tuple) and v[0] == "f":
        return '<table:table-cell table:formula="%s" office:value-type="float"/>' % escape(v[1], {'"': "&quot;"})
    if isinstance(v, (int, float)):
        return ('<table:table-cell office:value-type="float" office:value="%r"><text:p>%s</text:p></table:table-cell>'
                % (v, str(v).replace(".", ",")))
    return '<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>' % escape(v)


def fods(sheets):
    body = []
    for name, rows in sheets:
        body.append('<table:table table:name="%s">' % escape(name))
        for r in rows:
            body.append("<table:table-row>%s</table:table-row>" % "".join(cell(v) for v in r))
        body.append("</table:table>")
    return """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
 xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:automatic-styles>
 <number:date-style style:name="mmyy"><number:month number:textual="true"/><number:text> </number:text><number:year number:style="long"/></number:date-style>
 <style:style style:name="date" style:family="table-cell" style:data-style-name="mmyy"/>
 <number:number-style style:name="grouped"><number:number number:decimal-places="0" number:min-integer-digits="1" number:grouping="true"/></number:number-style>
 <style:style style:name="thousands" style:family="table-cell" style:data-style-name="grouped"/>
</office:automatic-styles>
<office:body><office:spreadsheet>%s</office:spreadsheet></office:body></office:document>
""" % "\n".join(body)


def libreoffice(name, sheets):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, name + ".fods")
        with open(src, "w", encoding="utf-8") as f:
            f.write(fods(sheets))
        subprocess.run(["soffice", "--headless", "-env:UserInstallation=file://" + tmp + "/profile",
                        "--convert-to", "xlsx", "--outdir", tmp, src], check=True, capture_output=True)
        shutil.copy(os.path.join(tmp, name + ".xlsx"), os.path.join(HERE, name + ".xlsx"))


# --- LibreOffice through UNO ----------------------------------------------

class Calc:
    """A French LibreOffice Calc (UI and locale fr-FR: decimal commas, French
    month names), started headless and driven through UNO."""

    def __enter__(self):
        import uno  # python3-uno
        self.uno = uno
        self.tmp = tempfile.mkdtemp()
        user = os.path.join(self.tmp, "profile", "user")
        os.makedirs(user)
        with open(os.path.join(user, "registrymodifications.xcu"), "w", encoding="utf-8") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?><oor:items xmlns:oor="http://openoffice.org/2001/registry" '
                    'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
                    '<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooLocale" oor:op="fuse"><value>fr</value></prop></item>'
                    '<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>fr-FR</value></prop></item>'
                    '</oor:items>')
        pipe = "primeur%d" % os.getpid()
        self.proc = subprocess.Popen(["soffice", "--headless", "--invisible", "--norestore",
                                      "-env:UserInstallation=file://" + self.tmp + "/profile",
                                      "--accept=pipe,name=%s;urp;" % pipe],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        for _ in range(300):
            try:
                ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
                break
            except Exception:
                time.sleep(0.1)
        else:
            raise RuntimeError("LibreOffice did not start")
        self.desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        return self

    def __exit__(self, *exc):
        try:
            self.desktop.terminate()
        except Exception:
            pass  # the bridge closes as LibreOffice quits
        self.proc.wait(timeout=60)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def props(self, **kw):
        from com.sun.star.beans import PropertyValue
        return tuple(PropertyValue(Name=k, Value=v) for k, v in kw.items())

    def make(self, name, sheets, edit=None, outputs=("ods", "xlsx")):
        """Writes sheets as a flat ODS, opens it in Calc, lets edit(doc)
        change it as a user would, then saves each output: "ods", "xlsx",
        "utf8.csv", "cp1252.csv", "comma.csv" (a CSV saves the active
        sheet)."""
        src = os.path.join(self.tmp, name + ".fods")
        with open(src, "w", encoding="utf-8") as f:
            f.write(fods(sheets))
        doc = self.desktop.loadComponentFromURL(self.uno.systemPathToFileUrl(src), "_blank", 0, self.props(Hidden=False))
        try:
            if edit:
                edit(doc)
            filters = {
                "ods": ("calc8", None),
                "xlsx": ("Calc MS Excel 2007 XML", None),
                # field separator ;, text delimiter ", UTF-8 (76) or
                # Windows-1252 (1), from line 1, cells as shown
                "utf8.csv": ("Text - txt - csv (StarCalc)", "59,34,76,1,,0,false,true,true,false,false"),
                "cp1252.csv": ("Text - txt - csv (StarCalc)", "59,34,1,1,,0,false,true,true,false,false"),
                "comma.csv": ("Text - txt - csv (StarCalc)", "44,34,76,1,,0,false,true,true,false,false"),
            }
            for out in outputs:
                flt, options = filters[out]
                props = {"FilterName": flt, "Overwrite": True}
                if options:
                    props["FilterOptions"] = options
                ext = "csv" if out.endswith(".csv") else out
                target = name + ("-" + out[:-4] if out.endswith(".csv") else "") + "." + ext
                self.desktop  # keep the bridge alive
                doc.storeToURL(self.uno.systemPathToFileUrl(os.path.join(HERE, target)), self.props(**props))
        finally:
            doc.close(True)


def duplicate_and_edit(doc):
    """Calc's "Dupliquer la feuille" (Besoins_2, after the original), then
    edits in the copy, which stays active: a quantity changed, a cell
    emptied, a row added."""
    sheets = doc.Sheets
    sheets.copyByName("Besoins", "Besoins_2", 1)
    copy = sheets.getByName("Besoins_2")
    copy.getCellRangeByName("B2").setValue(150)
    copy.getCellRangeByName("C3").clearContents(1 | 2 | 4 | 16)
    copy.getCellRangeByName("A5").setString("Poireau")
    for ref, v in (("B5", 30), ("C5", 35), ("D5", 40)):
        copy.getCellRangeByName(ref).setValue(v)
    doc.CurrentController.setActiveSheet(copy)


def activate(name):
    def edit(doc):
        doc.CurrentController.setActiveSheet(doc.Sheets.getByName(name))
    return edit


def merge_product_header(doc):
    """Produit merged over A1:A2, as drawn above a row of units."""
    doc.Sheets.getByName("Besoins").getCellRangeByName("A1:A2").merge(True)
    doc.CurrentController.setActiveSheet(doc.Sheets.getByName("Besoins"))


FR_MONTHS = ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."]


def year_tab(year, products, months):
    rows = [["Produit"] + ["%s %d" % (FR_MONTHS[m], year) for m in range(months)]]
    for i, p in enumerate(products):
        rows.append([p] + [10 * (i + 1) + m for m in range(months)])
    return (str(year), rows)


def calc_files(wanted):
    cases = {
        "libreoffice-duplicated-sheet": ([("Besoins", [
            ["Produit", "janv. 2027", "févr. 2027", "mars 2027"],
            ["Tomate", 120, 100, 90],
            ["Carotte", 80, 80, 60],
            ["Pomme de terre", 200, 180, 150],
        ])], duplicate_and_edit, ("ods", "xlsx")),
        "libreoffice-year-tabs": ([
            year_tab(2026, ["Tomate", "Carotte", "Poireau", "Pomme de terre", "Oignon", "Courgette", "Laitue"], 10),
            year_tab(2027, ["Tomate", "Carotte", "Poireau", "Pomme de terre"], 10),
        ], activate("2027"), ("ods", "xlsx")),
        "libreoffice-year-tabs-past-active": ([
            year_tab(2026, ["Tomate", "Carotte", "Poireau", "Pomme de terre", "Oignon", "Courgette", "Laitue"], 10),
            year_tab(2027, ["Tomate", "Carotte", "Poireau", "Pomme de terre"], 10),
        ], activate("2026"), ("ods", "xlsx")),
        "libreoffice-two-tables": ([
            ("Mode d'emploi", [["Une feuille par année : remplissez celle de l'année à venir."]]),
            year_tab(2027, ["Tomate", "Carotte"], 3),
            year_tab(2028, ["Tomate", "Poireau"], 3),
        ], activate("Mode d'emploi"), ("ods",)),
        "libreoffice-two-row-header": ([("Besoins", [
            ["Produit", "janv. 2027", "févr. 2027", "mars 2027"],
            [None, "kg / pièces", "kg / pièces", "kg / pièces"],
            ["Tomate", 120, 95.5, 80],
            ["Melon", 40, 45, 50],
            ["Carotte", 40, None, 45],
        ])], merge_product_header, ("ods", "xlsx")),
        "libreoffice-csv": ([("Besoins", [
            ["Besoins 2027 — Épicerie du Lac"],
            ["Produit", "janv. 2027", "févr. 2027", "mars 2027"],
            ["Tomates", ("thousands", 1200), 95.5, 80],
            ["Pommes de terre", 40, 12.25, None],
            ["Céleri-rave", 3, "NC", 2],
        ])], activate("Besoins"), ("utf8.csv", "cp1252.csv", "comma.csv")),
        "libreoffice-french-months": ([("Besoins", [
            ["Besoins 2027 — Épicerie"],
            ["Produit", "janv. 2027", "févr. 2027", "mars 2027"],
            ["Tomate", 120, 95.5, 80],
            ["Carotte", 40, 40, 45],
        ])], activate("Besoins"), ("ods",)),
    }
    todo = [n for n in cases if not wanted or n in wanted]
    if not todo:
        return
    with Calc() as calc:
        for name in todo:
            sheets, edit, outputs = cases[name]
            calc.make(name, sheets, edit, outputs)


# --- Gnumeric --------------------------------------------------------------

def gnumeric(name, csv_text):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, name + ".csv")
        with open(src, "w", encoding="utf-8") as f:
            f.write(csv_text)
        subprocess.run(["ssconvert", "--export-type=Gnumeric_Excel:xlsx2", src, os.path.join(HERE, name + ".xlsx")],
                       check=True, capture_output=True)


# --- openpyxl --------------------------------------------------------------

def openpyxl_file(name, sheets):
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in sheets:
        ws = wb.create_sheet(title)
        for r in rows:
            ws.append(r)
    wb.save(os.path.join(HERE, name + ".xlsx"))


def main(wanted):
    calc_files(wanted)
    if wanted:
        return
    # A shop's own table in LibreOffice: a title row and a blank row, the
    # product column headed "Désignation", a unit column, months typed as
    # French text, an empty column, a total column and a total row, remarks,
    # names in the plural, numbers typed as text the French way, "-", "NC",
    # "néant".
    libreoffice("libreoffice-shop-table", [("Besoins", [
        ["Besoins 2027 — Épicerie du Lac"],
        [],
        ["Désignation", "Unité", "janv. 2027", "févr. 2027", None, "01/03/2027", "Total", "Remarques"],
        ["Tomates", "kg", "1" + NBSP + "200", 12.5, None, "-", ("f", "of:=SUM([.C4:.F4])"), "bio"],
        ["Poireaux", "kg", 30, "NC", None, "néant", ("f", "of:=SUM([.C5:.F5])"), None],
        ["Pommes de terre", "kg", " 12,5 ", "1" + NNBSP + "040", None, 8, ("f", "of:=SUM([.C6:.F6])"), None],
        ["Melons", "pièce", 4, 6, None, None, ("f", "of:=SUM([.C7:.F7])"), None],
        ["Total", None, ("f", "of:=SUM([.C4:.C7])"), None, None, None, None, None],
    ])])
    # Formulas with their cached results, one of which has more decimals
    # than kilograms take: 231.5 / 6 = 38.5833… → 38.58 (listed as rounded).
    libreoffice("libreoffice-formulas", [("Besoins", [
        ["Produit", ("date", "2027-01-01"), ("date", "2027-02-01")],
        ["Tomate", ("f", "of:=231.5/6"), 10],
        ["Carotte", ("f", "of:=[.B2]*2"), ("f", "of:=ROUND([.C2]/4;2)")],
    ])])
    # A month header merged over two columns: each product has its January
    # quantity in one of them.
    libreoffice("libreoffice-merged-month", [("Besoins", [
        ["Produit", ("merge", 2, "janvier 2027"), "covered", "février 2027"],
        ["Tomate", 5, None, 7],
        ["Carotte", None, 3, 4],
    ])])
    # The browser test's file (ui/e2e/imports.spec.ts).
    libreoffice("libreoffice-french-months", [("Besoins", [
        ["Besoins 2027 — Épicerie"],
        ["Produit", "janv. 2027", "févr. 2027", "mars 2027"],
        ["Tomate", 120, 95.5, 80],
        ["Carotte", 40, 40, 45],
    ])])
    # Gnumeric, from a CSV: "Article" heads the products, months as text,
    # names as shops type them.
    gnumeric("gnumeric-names", "Article,janv. 2027,févr. 2027\n"
             "Pêches,10,12\n"
             "CHOU FLEUR,3,4\n"
             "pomme  de-terre,\"1 200\",5\n"
             "Choux de Bruxelles,2,\n")
    # Gnumeric: a unit that is not the catalogue's (melons are pieces).
    gnumeric("gnumeric-unit-mismatch", "Produit,Unité,01/2027\n"
             "Tomate,kg,3\n"
             "Melon,kg,3\n")
    # openpyxl: an instructions sheet first; a date formula in the header;
    # formulas without cached results, one reaching another sheet.
    openpyxl_file("openpyxl-formulas", [
        ("Mode d'emploi", [["Remplissez l'onglet Besoins : une ligne par produit, une colonne par mois."]]),
        ("Besoins", [
            ["Produit", "=DATE(2027,1,1)", "févr. 2027"],
            ["Tomate", 10, "=B2*2"],
            ["Carotte", "=SUM(2,3)", "=Calcul!A1"],
            ["Total", "=SUM(B2:B3)", "=SUM(C2:C3)"],
        ]),
        ("Calcul", [[7]]),
    ])
    # openpyxl: a second header row of units; a misspelt and an unknown name.
    openpyxl_file("openpyxl-units-row", [("Besoins", [
        ["Produit", "01/2027", "02/2027"],
        [None, "kg", "kg"],
        ["Tomates", 3, 4],
        ["Courgete", 5, 5],
        ["Kiwano", 1, 1],
    ])])
    # openpyxl: several problems at once, all named.
    openpyxl_file("openpyxl-problems", [("Besoins", [
        ["Produit", "2027-01", "2027-02"],
        ["Tomate", "douze", 3],
        ["Melon", 2.5, 4],
        ["Carotte", -3, 1],
        ["Laitue", "=1/0", 2],
    ])])
    # openpyxl: a decimal number of pieces, alone.
    openpyxl_file("openpyxl-half-lettuce", [("Besoins", [
        ["Produit", "2027-01"],
        ["Laitue", 2.5],
    ])])


if __name__ == "__main__":
    main(sys.argv[1:])
