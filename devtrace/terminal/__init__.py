"""The tool side of a running program: the live placement log and warnings on the terminal
(``console``) and Ctrl-C that stops the program (``interrupts``). The only room besides the CLI that
prints."""
