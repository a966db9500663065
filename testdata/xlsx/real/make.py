#!/usr/bin/env python3
"""Makes the real-world corpus of testdata/xlsx/real the way shops make their
files: LibreOffice Calc (a flat ODS written here, converted by `soffice
--headless --convert-to xlsx`), Gnumeric (a CSV converted by `ssconvert`) and
openpyxl (scripts write formulas without cached results, as openpyxl always
does). Run it from anywhere: `python3 testdata/xlsx/real/make.py` (Debian:
libreoffice-calc, gnumeric, python3-openpyxl). Each file's expected outcome
is its NAME.want.json, written by hand beside it (see README.md)."""

import os
import shutil
import subprocess
import tempfile
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


def main():
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
    main()
