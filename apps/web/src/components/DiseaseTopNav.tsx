import { useState } from 'react';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import Navbar from 'react-bootstrap/Navbar';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';

/**
 * The top navigation bar of the disease pages. Collapses below the lg breakpoint and
 * after a selection; the 'Cultivos' dropdown opens and closes by click, outside click,
 * Escape, arrow keys and Tab (react-bootstrap's accessible dropdown). The language switch is the
 * shell's, in the header.
 */
export function DiseaseTopNav() {
  const { t } = useTranslation();
  // Controlled so that Tab (focus leaving by keyboard) closes the menu as well.
  const [cropsOpen, setCropsOpen] = useState(false);
  return (
    <Navbar
      expand="lg"
      bg="success"
      data-bs-theme="dark"
      collapseOnSelect
      className="disease-topnav"
    >
      <Container fluid>
        <Navbar.Brand as={Link} to={ROUTES.tool}>
          DiAgroDL
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="disease-topnav" label={t('topnav.toggle')} />
        <Navbar.Collapse id="disease-topnav">
          <Nav className="me-auto" as="ul" aria-label={t('topnav.label')}>
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to={ROUTES.tool} eventKey={ROUTES.tool}>
                {t('topnav.home')}
              </Nav.Link>
            </Nav.Item>
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to={ROUTES.aboutTool} eventKey={ROUTES.aboutTool}>
                {t('topnav.aboutTool')}
              </Nav.Link>
            </Nav.Item>
            <NavDropdown
              as="li"
              title={t('topnav.crops')}
              id="crops-dropdown"
              data-testid="crops-dropdown"
              show={cropsOpen}
              onToggle={(next: boolean) => setCropsOpen(next)}
              onKeyDown={(e: React.KeyboardEvent) => {
                if (e.key === 'Tab') setCropsOpen(false);
              }}
            >
              <NavDropdown.Item as={Link} to={ROUTES.tomatoCrops} eventKey={ROUTES.tomatoCrops}>
                {t('topnav.tomato')}
              </NavDropdown.Item>
              <NavDropdown.Item disabled aria-disabled="true">
                {t('topnav.strawberry')}
              </NavDropdown.Item>
              <NavDropdown.Item disabled aria-disabled="true">
                {t('topnav.potato')}
              </NavDropdown.Item>
            </NavDropdown>
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to={ROUTES.custom} eventKey={ROUTES.custom}>
                {t('topnav.startTool')}
              </Nav.Link>
            </Nav.Item>
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to={ROUTES.contact} eventKey={ROUTES.contact}>
                {t('topnav.contact')}
              </Nav.Link>
            </Nav.Item>
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
