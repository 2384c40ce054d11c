"""irrplot's modules: find result files, derive statistics with irrcheck's code, draw the plots
(time vs m, library settings side by side, TUW speed-up heat maps) and the HTML report."""
