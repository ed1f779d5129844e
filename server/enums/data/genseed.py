#!/usr/bin/env python3
"""Regenerates the ISO seed files of the enumerations (server/enums/data/*.csv) from Debian's
iso-codes package: countries (ISO 3166-1), their subdivisions (ISO 3166-2) and currencies
(ISO 4217), with English names from the JSON files and Spanish names from the gettext catalogues.

    apt-get install -y iso-codes
    python3 server/enums/data/genseed.py          # from the repository root

Ids are stable: countries are 3000 + the ISO numeric code, currencies 2000 + the ISO numeric
code, subdivisions keep the id they have in the current states.csv and new ones get the next free
number from 10000 up. Spain's subdivisions take their official names from es_official.csv (kept by
hand): iso-codes gives them in the co-official languages with markers ("Alacant*",
"A Coruña [La Coruña]"). fixed.csv (asset classes, categories, structure types, liability kinds,
relationships) is kept by hand. Only the standard library is used.
"""
import csv
import gettext
import json
import os
import re

ISO = "/usr/share/iso-codes/json"
MO = "/usr/share/locale/es/LC_MESSAGES"
HERE = os.path.dirname(os.path.abspath(__file__))
SKIP_CURRENCIES = {"XTS", "XXX"}  # testing / no currency: not money (as shared-schema/data)


def catalogue(name):
    with open(os.path.join(MO, name + ".mo"), "rb") as f:
        return gettext.GNUTranslations(f)


def clean(name):
    """iso-codes marks names: 'Alacant*' (name in a co-official language), 'A [B]' (B = the
    same name in another language). Keep the first name without markers."""
    name = re.sub(r"\s*\[[^\]]*\]", "", name)
    return name.rstrip("*").strip()


def load(name, key):
    with open(os.path.join(ISO, name + ".json"), encoding="utf-8") as f:
        return json.load(f)[key]


def write(name, header, rows):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def spanish_key(s):
    import unicodedata
    return "".join(c for c in unicodedata.normalize("NFD", s.lower()) if unicodedata.category(c) != "Mn")


def main():
    t1 = catalogue("iso_3166-1")
    countries = []
    for c in load("iso_3166-1", "3166-1"):
        en = c.get("common_name", c["name"])
        es = t1.gettext(en)
        if es == en and "common_name" in c:
            es = t1.gettext(c["name"])
        countries.append([3000 + int(c["numeric"]), c["alpha_2"], clean(es), clean(en)])
    countries.sort(key=lambda r: spanish_key(r[2]))
    write("countries.csv", ["id", "code", "es", "en"], countries)

    t4 = catalogue("iso_4217")
    currencies = []
    for c in load("iso_4217", "4217"):
        if c["alpha_3"] in SKIP_CURRENCIES:
            continue
        currencies.append([2000 + int(c["numeric"]), c["alpha_3"], t4.gettext(c["name"]), c["name"]])
    currencies.sort(key=lambda r: r[1])
    write("currencies.csv", ["id", "code", "es", "en"], currencies)

    old = {}
    path = os.path.join(HERE, "states.csv")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for row in csv.DictReader(f):
                old[row["code"]] = int(row["id"])
    official = {}
    with open(os.path.join(HERE, "es_official.csv"), encoding="utf-8") as f:
        for row in csv.DictReader(f):
            official[row["code"]] = (row["es"], row["en"])
    t2 = catalogue("iso_3166-2")
    next_id = max(old.values(), default=9999) + 1
    states = []
    for s in sorted(load("iso_3166-2", "3166-2"), key=lambda s: s["code"]):
        code = s["code"]
        country = code.split("-")[0]
        parent = country
        if "parent" in s:  # "AN" or, for some countries, the whole code "GB-ENG"
            parent = s["parent"] if "-" in s["parent"] else country + "-" + s["parent"]
        level = re.sub(r"[^a-z0-9]+", "_", s["type"].lower()).strip("_")
        if code in official:
            es, en = official[code]
        else:
            en = clean(s["name"])
            es = clean(t2.gettext(s["name"]))
        if code not in old:
            old[code] = next_id
            next_id += 1
        states.append([old[code], code, parent, level, es, en])
    states.sort(key=lambda r: (r[2], spanish_key(r[4])))
    write("states.csv", ["id", "code", "parent", "level", "es", "en"], states)


if __name__ == "__main__":
    main()
