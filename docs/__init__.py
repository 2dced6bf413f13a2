"""kernelscope's user documentation (user-guide.md, troubleshooting.md, cli.md and the
screenshots in images/), installed with the package so that Help > User guide can show it;
``kernelscope.core.environment.user_docs`` finds it. The scripts here regenerate parts of it
and are not used at run time."""
