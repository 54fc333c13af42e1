"""Issue 41, defects 8 and 9 (the Training lab's Stop and seed, numbers beyond float64) in de.
``python dev/i18n/fill_po.py de dev/i18n/tables/training-input_de.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    'Other data and other starting weights: a whole number from {low} to {high}.': 'Andere Daten und andere Startgewichte: eine ganze Zahl von {low} bis {high}.',
    'The charts appear here when the training ends or when you stop it.': 'Die Diagramme erscheinen hier, sobald das Training endet oder du es stoppst.',
    'larger than {largest}': 'größer als {largest}',
    'not a number (two of its terms overflowed to +∞ and −∞)': 'keine Zahl (zwei ihrer Terme sind nach +∞ und −∞ übergelaufen)',
    'smaller than −{largest}': 'kleiner als −{largest}',
    'the numbers of row {row} add up to a sum {what}, beyond the largest number float64 holds: no answer here needs numbers that large': 'die Zahlen in Zeile {row} ergeben eine Summe {what} und damit mehr, als float64 darstellen kann: Keine Antwort hier braucht so große Zahlen',
    "the output overflows: the output for '{query}', column {col}, is {what}, beyond the largest number float64 holds; the largest entry of {name} is {big}: use smaller numbers": 'die Ausgabe läuft über: Die Ausgabe für „{query}“, Spalte {col}, ist {what} und damit jenseits der größten Zahl, die float64 darstellen kann; der größte Eintrag von {name} ist {big}: Verwende kleinere Zahlen',
    "the projection overflows: {name} for '{token}', column {col}, is {what}, beyond the largest number float64 holds; the largest entry of X and {W} is {big}: use smaller numbers": 'die Projektion läuft über: {name} für „{token}“, Spalte {col}, ist {what} und damit jenseits der größten Zahl, die float64 darstellen kann; der größte Eintrag von X und {W} ist {big}: Verwende kleinere Zahlen',
    'the scores overflow: q·k for ({query}, {key}) is {what}, beyond the largest number float64 holds; the largest entry of Q and K is {big}: use smaller numbers': 'die Scores laufen über: q·k für ({query}, {key}) ist {what} und damit jenseits der größten Zahl, die float64 darstellen kann; der größte Eintrag von Q und K ist {big}: Verwende kleinere Zahlen',
    'the seed must be a whole number from {low} to {high}; {seed} is outside that range': 'der Seed muss eine ganze Zahl von {low} bis {high} sein; {seed} liegt außerhalb dieses Bereichs',
    '{problem}. Nothing is trained or drawn for it: the charts come back when the seed is in range, and your other settings stay as they are.': '{problem}. Damit wird nichts trainiert und nichts gezeichnet: Die Diagramme kommen zurück, sobald der Seed im Bereich liegt, und deine anderen Einstellungen bleiben, wie sie sind.',
}
# fmt: on
