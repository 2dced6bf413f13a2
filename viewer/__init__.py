"""kernelscope's Qt user interface. It calls kernelscope.core and never parses files itself."""

from kernelscope.viewer import pyside_none_fix

pyside_none_fix.apply()
